/** HowTo: retired (Google's announcement, updated 2023-09-14: no longer shown on any device). */
import type { GoogleFeature } from "../feature.ts";

export const howTo: GoogleFeature = {
  name: "HowTo",
  status: "deprecated",
  since: "2023-09",
  url: "https://developers.google.com/search/blog/2023/08/howto-faq-changes",
  checked: "2026-11-26",
  note: "Google stopped showing HowTo rich results in September 2023 (mobile and desktop).",
  rules: [],
  partTypes: ["HowTo", "HowToSection", "HowToStep"],
  aimedAt: (n) => n.types.includes("HowTo"),
};
