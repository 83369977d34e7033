/** Video: a video's thumbnail, duration and key moments in results. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { KIND_HINT, oneOf, recommended, required } from "../rule_kit.ts";

export const video: GoogleFeature = {
  name: "Video",
  status: "supported",
  since: null,
  url: `${SD_DOCS}video`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a VideoObject",
    applies: (n) => anyIsA(n.types, "VideoObject"),
    checks: [
      required("name", "the video's title"),
      required("thumbnailUrl", "an image URL of the thumbnail", "url"),
      required("uploadDate", "when it was first published", "date"),
      recommended("description", "what the video shows"),
      recommended("duration", KIND_HINT.duration, "duration"),
      oneOf("warning", ["contentUrl", "embedUrl"], "the video file's URL or its player's URL"),
    ],
  }],
  generator: { primary: ["VideoObject"] },
};
