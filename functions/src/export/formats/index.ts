/** The export formats by name (`EXPORT_FORMATS` in contracts says which service offers which). */
import type { ExportFormat } from "@alpvault/contracts/exports";
import { DRIVE_ZIP } from "./drive";
import type { FormatWriter } from "./format";
import { ICS } from "./ics";
import { EML, MBOX } from "./mail";
import { VCF } from "./vcf";

export const FORMAT_WRITERS: Readonly<Record<ExportFormat, FormatWriter>> = {
  mbox: MBOX,
  eml: EML,
  zip: DRIVE_ZIP,
  ics: ICS,
  vcf: VCF,
};
