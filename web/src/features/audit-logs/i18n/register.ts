import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The audit log screen's strings (`auditLogs.*`); imported by the screen's modules. */
registerFeatureTranslations(en, fr);
