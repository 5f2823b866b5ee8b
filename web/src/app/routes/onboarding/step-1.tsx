import { OnboardingStep } from "./onboarding-step";

export default function OnboardingStep1Route() {
  return <OnboardingStep step={1} />;
}
