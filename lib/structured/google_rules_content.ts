/**
 * Google's rich-result features, second part of the table (the order google_rules.ts applies them
 * in): events, recipes, videos, jobs, apps, datasets, forums, profiles, Q&A, images, films,
 * rentals, courses, quizzes, math solvers, return policies, loyalty programs, carousels, paywalls.
 */
import { anyIsA } from "./vocabulary.ts";
import { shortTerm } from "./terms.ts";
import {
  each,
  type Feature,
  fits,
  KIND_HINT,
  namedEntity,
  oneOf,
  preview,
  recommended,
  required,
  valuesAt,
} from "./google_rule_kit.ts";
import {
  dateOrder,
  eventLocation,
  isListEntry,
  isStandalone,
  isTopLevel,
  withoutTypes,
} from "./google_checks.ts";

/** The features from Event to Subscription and paywalled content, in the order they apply. */
export const CONTENT_FEATURES: Feature[] = [
  {
    name: "Event",
    // Comment markup (UserComments) and publication events are Events only in schema.org's tree.
    applies: (n) =>
      anyIsA(n.types, "Event") && isTopLevel(n) &&
      withoutTypes(n, "UserComments", "PublicationEvent"),
    checks: [
      required("name", "the event's name"),
      required("startDate", "when it starts", "date"),
      required("location", "a Place with address, or a VirtualLocation with url"),
      eventLocation,
      dateOrder,
      recommended("endDate", "when it ends", "date"),
      recommended("description", "what the event is"),
      recommended("image", "an image URL", "url"),
      recommended("eventStatus", 'e.g. "https://schema.org/EventScheduled"'),
      recommended("eventAttendanceMode", 'e.g. "https://schema.org/OfflineEventAttendanceMode"'),
      recommended("organizer", "who organises it, with name and url"),
      recommended("performer", "who performs, with name"),
      recommended("offers", "ticket price, currency, availability and url"),
      each("offers", [
        recommended("price", "the ticket price, as a number", "number"),
        recommended("priceCurrency", KIND_HINT.currency, "currency"),
        recommended("availability", "whether tickets are available", "availability"),
        recommended("url", "where to buy tickets", "url"),
      ]),
    ],
  },
  {
    name: "Recipe",
    applies: (n) => anyIsA(n.types, "Recipe"),
    checks: [
      required("name", "the dish's name"),
      required("image", "a photo of the finished dish", "url"),
      recommended("author", "who created it, a Person or Organization"),
      recommended("datePublished", "when it was published", "date"),
      recommended("description", "a short summary"),
      recommended("recipeIngredient", "one ingredient per entry"),
      recommended("recipeInstructions", "the steps, as HowToStep entries"),
      recommended("recipeYield", 'servings, e.g. "4"'),
      oneOf("warning", ["totalTime", "cookTime"], KIND_HINT.duration),
      (n, out) => {
        for (const p of ["totalTime", "cookTime", "prepTime"]) {
          const bad = valuesAt(n, p).find((v) => !fits("duration", v, n));
          if (bad !== undefined) {
            out.push({
              severity: "warning",
              property: p,
              feature: "",
              message: `"${p}" should be ${KIND_HINT.duration}; found ${preview(bad)}.`,
            });
          }
        }
      },
      recommended("keywords", "e.g. occasion or season"),
      recommended("recipeCategory", 'e.g. "dessert"'),
      recommended("recipeCuisine", 'e.g. "Italian"'),
      recommended("nutrition.calories", 'e.g. "270 calories"'),
    ],
  },
  {
    name: "Video",
    applies: (n) => anyIsA(n.types, "VideoObject"),
    checks: [
      required("name", "the video's title"),
      required("thumbnailUrl", "an image URL of the thumbnail", "url"),
      required("uploadDate", "when it was first published", "date"),
      recommended("description", "what the video shows"),
      recommended("duration", KIND_HINT.duration, "duration"),
      oneOf("warning", ["contentUrl", "embedUrl"], "the video file's URL or its player's URL"),
    ],
  },
  {
    name: "Job posting",
    applies: (n) => anyIsA(n.types, "JobPosting") && isTopLevel(n),
    checks: [
      required("title", "the job's title only, no codes or salaries"),
      required("description", "the full description, in HTML"),
      required("datePosted", "when it was posted", "date"),
      required("hiringOrganization", "the employer, an Organization with its name", "node"),
      namedEntity("hiringOrganization", "error"),
      (n, out) => {
        const remote = valuesAt(n, "jobLocationType").some((v) => String(v) === "TELECOMMUTE");
        if (remote) {
          required("applicantLocationRequirements", "where applicants may live (a Country)")(
            n,
            out,
          );
        } else {
          required("jobLocation", "a Place with its PostalAddress")(n, out);
        }
      },
      recommended("validThrough", "when the posting expires, if it does", "date"),
      recommended("baseSalary", "the pay, a MonetaryAmount"),
      recommended("employmentType", 'e.g. "FULL_TIME"'),
      recommended("identifier", "the employer's own id of the job"),
    ],
  },
  {
    name: "Software app",
    applies: (n) => anyIsA(n.types, "SoftwareApplication") && isTopLevel(n),
    checks: [
      required("name", "the app's name"),
      required("offers.price", 'its price as a number ("0" when it is free)', "number"),
      oneOf("error", ["aggregateRating", "review"], "its average rating or a review"),
      recommended("applicationCategory", 'e.g. "GameApplication"'),
      recommended("operatingSystem", 'e.g. "Android" or "Windows 10"'),
    ],
  },
  {
    name: "Dataset",
    applies: (n) => anyIsA(n.types, "Dataset") && isTopLevel(n),
    checks: [
      required("name", "the dataset's name"),
      required("description", "a summary of 50 to 5000 characters"),
      recommended("license", "the license's URL", "url"),
      recommended("creator", "who made it, a Person or Organization"),
      recommended("url", "the dataset's page", "url"),
    ],
  },
  {
    name: "Discussion forum",
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
  },
  {
    name: "Profile page",
    applies: (n) => n.types.includes("ProfilePage") && isStandalone(n),
    checks: [
      required("mainEntity", "the Person or Organization the page is about", "node"),
      each("mainEntity", [required("name", "their name")]),
      recommended("dateCreated", "when the profile was created", "date"),
      recommended("dateModified", "when it was last changed", "date"),
    ],
  },
  {
    name: "Q&A",
    applies: (n) => n.types.includes("QAPage") && isStandalone(n),
    checks: [
      required("mainEntity", "the Question the page is about", "node"),
      each("mainEntity", [
        required("name", "the question's full text"),
        required("answerCount", "how many answers it has", "number"),
        oneOf("error", ["acceptedAnswer", "suggestedAnswer"], "its answers"),
        each("acceptedAnswer", [required("text", "the full answer")]),
        each("suggestedAnswer", [required("text", "the full answer")]),
      ]),
    ],
  },
  {
    name: "Image metadata",
    applies: (n) =>
      anyIsA(n.types, "ImageObject") && isTopLevel(n) &&
      ["license", "acquireLicensePage", "creditText", "copyrightNotice", "creator"].some((p) =>
        valuesAt(n, p).length
      ),
    checks: [
      oneOf("error", ["contentUrl", "url"], "the image file's URL"),
      recommended("license", "the URL of the image's license", "url"),
      recommended("acquireLicensePage", "where to license the image", "url"),
    ],
  },
  {
    name: "Movie carousel",
    applies: (n) => anyIsA(n.types, "Movie") && (isTopLevel(n) || isListEntry(n)),
    checks: [
      required("name", "the film's title"),
      required("image", "a poster or still", "url"),
      recommended("director", "its director, a Person"),
      recommended("dateCreated", "its release date", "date"),
      recommended("aggregateRating", "its average rating"),
    ],
  },
  {
    name: "Vacation rental",
    applies: (n) => anyIsA(n.types, "VacationRental") && isTopLevel(n),
    checks: [
      required("name", "the listing's name"),
      required("identifier", "your own id of the listing"),
      required("image", "photos of the rental (Google asks for at least eight)", "url"),
      required("latitude", "its latitude", "number"),
      required("longitude", "its longitude", "number"),
      required("containsPlace", "the Accommodation with its occupancy", "node"),
      recommended("address", "its PostalAddress"),
      recommended("aggregateRating", "its average rating"),
    ],
  },
  {
    name: "Course list",
    applies: (n) => anyIsA(n.types, "Course") && (isTopLevel(n) || isListEntry(n)),
    checks: [
      required("name", "the course's title"),
      required("description", "what it teaches"),
      recommended("provider", "who offers it, an Organization with its name"),
    ],
  },
  {
    name: "Practice problem",
    applies: (n) => n.types.includes("Quiz") && isTopLevel(n),
    checks: [
      required("hasPart", "the quiz's Questions"),
      recommended("about", "the concept it practises"),
      recommended("educationalAlignment", "the learning standard it aligns with"),
    ],
  },
  {
    name: "Education Q&A",
    // Flashcard quizzes; a Quiz of practice questions is the "Practice problem" feature.
    applies: (n) =>
      n.types.includes("Quiz") && isTopLevel(n) &&
      valuesAt(n, "hasPart.eduQuestionType").some((v) => String(v) === "Flashcard"),
    checks: [
      each("hasPart", [
        required("text", "the question's full text"),
        required("acceptedAnswer", "the answer, an Answer with its text", "node"),
        each("acceptedAnswer", [required("text", "the answer's text")]),
      ]),
    ],
  },
  {
    name: "Math solver",
    applies: (n) => n.types.includes("MathSolver") && isTopLevel(n),
    checks: [
      required("url", "the solver's page", "url"),
      required("usageInfo", "the page of its usage policy", "url"),
      required("potentialAction", "a SolveMathAction with its target and mathExpression-input"),
    ],
  },
  {
    name: "Return policy",
    applies: (n) => anyIsA(n.types, "MerchantReturnPolicy"),
    checks: [
      required(
        "returnPolicyCategory",
        'e.g. "https://schema.org/MerchantReturnFiniteReturnWindow"',
      ),
      recommended("applicableCountry", 'the two-letter country code, e.g. "DE"'),
      (n, out) => {
        const finite = valuesAt(n, "returnPolicyCategory").some((v) =>
          shortTerm(String(v)) === "MerchantReturnFiniteReturnWindow"
        );
        if (finite) required("merchantReturnDays", "how many days returns are accepted")(n, out);
      },
    ],
  },
  {
    name: "Loyalty program",
    applies: (n) => n.types.includes("MemberProgram"),
    checks: [
      required("name", "the program's name"),
      required("description", "what members get"),
      required("hasTiers", "its tiers, each a MemberProgramTier with a name"),
    ],
  },
  {
    name: "Carousel",
    applies: (n) =>
      anyIsA(n.types, "ItemList") && isStandalone(n) &&
      withoutTypes(n, "BreadcrumbList", "HowToSection", "HowToStep", "OfferCatalog"),
    checks: [required("itemListElement", "the list's entries, each a ListItem with position")],
  },
  {
    name: "Subscription and paywalled content",
    applies: (n) =>
      anyIsA(n.types, "CreativeWork") &&
      valuesAt(n, "isAccessibleForFree").some((v) => String(v).toLowerCase() === "false"),
    checks: [
      recommended(
        "hasPart",
        'the paywalled parts, each a WebPageElement with "isAccessibleForFree": false and its cssSelector',
      ),
    ],
  },
];
