import { OnboardingStep } from "./onboarding-step";

export default function OnboardingStep2Route() {
  return <OnboardingStep step={2} />;
}
