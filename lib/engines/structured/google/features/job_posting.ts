/** Job posting: jobs in Google's job search experience. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { namedEntity, recommended, required, valuesAt } from "../rule_kit.ts";

export const jobPosting: GoogleFeature = {
  name: "Job posting",
  status: "supported",
  since: null,
  url: `${SD_DOCS}job-posting`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level JobPosting",
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
  }],
  generator: { primary: ["JobPosting"] },
};
