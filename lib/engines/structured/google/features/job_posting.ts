/** Job posting: jobs in Google's job search experience. */
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
    types: ["JobPosting"],
    where: isTopLevel,
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
  complete: [{
    "@type": "JobPosting",
    title: "Pastry chef",
    description: "<p>Bake our daily bread and pastries.</p>",
    datePosted: "2026-10-01",
    validThrough: "2026-12-31T00:00:00+01:00",
    employmentType: "FULL_TIME",
    identifier: { "@type": "PropertyValue", name: "Example Bakery", value: "1234" },
    hiringOrganization: { "@type": "Organization", name: "Example Bakery" },
    jobLocation: {
      "@type": "Place",
      address: {
        "@type": "PostalAddress",
        streetAddress: "1 Main Street",
        addressLocality: "Bergen",
        postalCode: "5003",
        addressCountry: "NO",
      },
    },
    baseSalary: {
      "@type": "MonetaryAmount",
      currency: "NOK",
      value: { "@type": "QuantitativeValue", value: 300, unitText: "HOUR" },
    },
  }],
};
