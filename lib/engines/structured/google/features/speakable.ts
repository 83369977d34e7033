/** Speakable: parts of a news article read aloud by the Google Assistant (beta). */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";

export const speakable: GoogleFeature = {
  name: "Speakable",
  status: "limited",
  since: null,
  url: `${SD_DOCS}speakable`,
  checked: "2026-11-26",
  note: "Beta: Google Assistant, news publishers in English in the US only.",
  rules: [],
};
