/** Discussion forum: forum threads and social posts in "Discussions and forums". */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { namedEntity, oneOf, recommended, required } from "../rule_kit.ts";

export const discussionForum: GoogleFeature = {
  name: "Discussion forum",
  status: "supported",
  since: null,
  url: `${SD_DOCS}discussion-forum`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level DiscussionForumPosting or SocialMediaPosting",
    applies: (n) =>
      (n.types.includes("DiscussionForumPosting") || n.types.includes("SocialMediaPosting")) &&
      isTopLevel(n),
    checks: [
      required("author", "who posted it, a Person with a name"),
      namedEntity("author", "error"),
      required("datePublished", "when it was posted", "date"),
      oneOf(
        "error",
        ["text", "articleBody", "image", "video", "sharedContent"],
        "the post's text, image or video, or the link it shares",
      ),
      recommended("url", "the post's own URL", "url"),
      recommended("headline", "the thread's title"),
    ],
  }],
};
