import { OnboardingStep } from "./onboarding-step";

export default function OnboardingStep3Route() {
  return <OnboardingStep step={3} />;
}
