/** Discussion forum: forum threads and social posts in "Discussions and forums". */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { namedEntity, oneOf, recommended, required } from "../rule_kit.ts";

export const discussionForum: GoogleFeature = {
  name: "Discussion forum",
  status: "supported",
  since: null,
  url: `${SD_DOCS}discussion-forum`,
  checked: "2026-12-06",
  rules: [{
    nodes: "a top-level DiscussionForumPosting or SocialMediaPosting",
    // The page's title names both (read 2026-12-06); BlogPosting, a SocialMediaPosting in
    // schema.org, is named by the Article page and read there.
    types: ["DiscussionForumPosting", "SocialMediaPosting"],
    where: isTopLevel,
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
  complete: [{
    "@type": "DiscussionForumPosting",
    headline: "Which grinder for espresso?",
    text: "I am choosing between a flat and a conical burr grinder.",
    url: "https://example.com/forum/grinders",
    datePublished: "2026-10-12T08:00:00+01:00",
    author: { "@type": "Person", name: "Bo Lind", url: "https://example.com/users/bo" },
  }],
};
