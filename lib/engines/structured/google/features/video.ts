/** Video: a video's thumbnail, duration and key moments in results. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { KIND_HINT, oneOf, recommended, required } from "../rule_kit.ts";

export const video: GoogleFeature = {
  name: "Video",
  status: "supported",
  since: null,
  url: `${SD_DOCS}video`,
  checked: "2026-12-06",
  rules: [{
    nodes: "a VideoObject",
    types: ["VideoObject"],
    checks: [
      required("name", "the video's title"),
      required("thumbnailUrl", "an image URL of the thumbnail", "url"),
      required("uploadDate", "when it was first published", "date"),
      recommended("description", "what the video shows"),
      recommended("duration", KIND_HINT.duration, "duration"),
      oneOf("warning", ["contentUrl", "embedUrl"], "the video file's URL or its player's URL"),
    ],
  }],
  // A live video's "publication" (a BroadcastEvent, an Event in schema.org) and its key moments
  // (Clip): the Video page documents both (read 2026-12-06).
  partTypes: ["BroadcastEvent", "Clip"],
  generator: { primary: ["VideoObject"] },
  complete: [{
    "@type": "VideoObject",
    name: "Shaping a loaf",
    description: "How to shape a sourdough loaf.",
    thumbnailUrl: "https://example.com/photos/loaf.jpg",
    uploadDate: "2026-10-12T08:00:00+01:00",
    duration: "PT3M20S",
    contentUrl: "https://example.com/videos/loaf.mp4",
  }],
};
