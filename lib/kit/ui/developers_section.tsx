/** The section both home pages end with: for developers and AI agents. */
import type { VNode } from "preact";
import type { HomeProps } from "../../service.ts";
import { PATHS } from "../report_urls.ts";

/** The developers' section of a home page: the API, MCP, the sister service and the source. */
export function DevelopersSection(props: Pick<HomeProps, "sister" | "sourceUrl">): VNode {
  const { sister, sourceUrl } = props;
  return (
    <section aria-labelledby="dev-title">
      <h2 id="dev-title">For developers and AI agents</h2>
      <p>
        The same scans are an HTTP API with free keys, and an MCP server that AI agents can call.
        Read the <a href={PATHS.docs}>API and MCP documentation</a> or load the{" "}
        <a href={PATHS.openApi}>OpenAPI document</a>.
      </p>
      {sister && (
        <p>
          Our sister service, the <a href={sister.url}>{sister.name}</a>, checks {sister.what}.
        </p>
      )}
      <p>
        Both services are one open-source program (MIT licence) that anyone can run on their own
        machine{sourceUrl
          ? (
            <>
              : read the <a href={sourceUrl}>source code</a>.
            </>
          )
          : "."}
      </p>
    </section>
  );
}
