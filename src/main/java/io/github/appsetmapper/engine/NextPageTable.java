package io.github.appsetmapper.engine;

import io.github.appsetmapper.engine.NextPageSignals.Signal;
import io.github.appsetmapper.engine.NextPageSignals.Test;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@link NextPageSignals#TABLE}: each spelling of a next page in a body, who sends it,
 * and the {@code paginate} mode that reads it (null: none can), in the order they are tried.
 */
final class NextPageTable {
  private NextPageTable() {}

  private static Signal top(String keys, Test test, String vendor, String mode) {
    return new Signal(List.of(keys.split("/")), test, vendor, mode, false);
  }

  static List<Signal> rows() {
    List<Signal> table = new ArrayList<>();
    table.add(top("next", Test.URL, "Bitbucket Cloud, Django REST", "next: \"$.next\""));
    table.add(top("@odata.nextLink", Test.TEXT, "OData", "next: \"$['@odata.nextLink']\""));
    table.add(top("nextLink", Test.URL, "Azure Resource Manager", "next: \"$.nextLink\""));
    table.add(
        top(
            "nextPageToken",
            Test.TEXT,
            "Google",
            "cursor: {param: pageToken, from: \"$.nextPageToken\"}"));
    table.add(
        top(
            "next_page_token",
            Test.TEXT,
            "Google (snake case)",
            "cursor: {param: page_token, from: \"$.next_page_token\"}"));
    table.add(
        top(
            "isLastPage",
            Test.FALSE,
            "Bitbucket Server",
            "cursor: {param: start, from: \"$.nextPageStart\"}"));
    table.add(top("nextPage", Test.URL, "Jira", "next: \"$.nextPage\""));
    table.add(top("isLast", Test.FALSE, "Jira", null));
    table.add(top("links/next", Test.URL, "JSON:API", "next: \"$.links.next\""));
    table.add(
        top(
            "links/next/href",
            Test.URL,
            "JSON:API (a link object)",
            "next: \"$.links.next.href\""));
    table.add(top("_links/next/href", Test.URL, "HAL", "next: \"$._links.next.href\""));
    table.add(
        top(
            "metadata/continue",
            Test.TEXT,
            "Kubernetes",
            "cursor: {param: continue, from: \"$.metadata.continue\"}"));
    table.add(
        top(
            "has_more",
            Test.TRUE,
            "Stripe",
            "cursor: {param: starting_after, from: \"$.data[-1].id\", until:"
                + " \"!response.body.has_more\"}"));
    table.add(
        top(
            "response_metadata/next_cursor",
            Test.TEXT,
            "Slack",
            "cursor: {param: cursor, from: \"$.response_metadata.next_cursor\"}"));
    table.add(
        top("NextToken", Test.TEXT, "AWS", "cursor: {param: NextToken, from: \"$.NextToken\"}"));
    table.add(
        top("nextToken", Test.TEXT, "AWS", "cursor: {param: nextToken, from: \"$.nextToken\"}"));
    table.add(
        top("NextMarker", Test.TEXT, "AWS", "cursor: {param: Marker, from: \"$.NextMarker\"}"));
    table.add(
        top(
            "NextContinuationToken",
            Test.TEXT,
            "AWS S3 (ListObjectsV2)",
            "cursor: {param: continuation-token, from: \"$.NextContinuationToken\"}"));
    table.add(
        top(
            "IsTruncated",
            Test.TRUE,
            "AWS",
            "cursor: {param: Marker, from: \"$.Marker\", until: \"!response.body.IsTruncated\"}"));
    table.add(top("next_page_url", Test.URL, "Laravel", "next: \"$.next_page_url\""));
    table.add(top("next_page", Test.URL, "Zendesk", "next: \"$.next_page\""));
    table.add(
        top(
            "hydra:view/hydra:next",
            Test.URL,
            "Hydra (API Platform)",
            "next: \"$['hydra:view']['hydra:next']\""));
    table.add(
        top(
            "meta/pagination/links/next",
            Test.URL,
            "Fractal",
            "next: \"$.meta.pagination.links.next\""));
    table.add(top("_links/next", Test.URL, "Confluence", "next: \"$._links.next\""));
    table.add(top("paging/next/link", Test.URL, "HubSpot", "next: \"$.paging.next.link\""));
    table.add(top("links/pages/next", Test.URL, "DigitalOcean", "next: \"$.links.pages.next\""));
    table.add(top("nextRecordsUrl", Test.URL, "Salesforce", "next: \"$.nextRecordsUrl\""));
    table.add(top("next_page_uri", Test.URL, "Twilio", "next: \"$.next_page_uri\""));
    table.add(top("meta/next_page_url", Test.URL, "Twilio", "next: \"$.meta.next_page_url\""));
    table.add(
        top("last", Test.FALSE_WORD, "Spring Data (a Page)", "page: {param: page, start: 0}"));
    table.add(
        top(
            "continuationToken",
            Test.TEXT,
            "Sonatype Nexus",
            "cursor: {param: continuationToken, from: \"$.continuationToken\"}"));
    table.add(
        top(
            "has_additional",
            Test.TRUE,
            "Quay",
            "cursor: {param: next_page, from: \"$.next_page\", until:"
                + " \"!response.body.has_additional\"}"));
    table.add(top("more", Test.TRUE, "PagerDuty", null));
    table.add(
        top(
            "meta/has_more",
            Test.TRUE,
            "Zendesk (cursor pagination)",
            "cursor: {param: \"page[after]\", from: \"$.meta.after_cursor\", until:"
                + " \"!response.body.meta.has_more\"}"));
    table.add(top("next_page", Test.NUMBER, "a page number", "page: {param: page}"));
    // The pagination objects' flags at the top of the body too (a page-numbered API's own shape).
    for (String flag : List.of("has_next_page", "hasNextPage", "hasMore")) {
      table.add(top(flag, Test.TRUE, "a page-numbered API", "page: {param: page}"));
    }
    for (String holder : List.of("pagination", "meta", "page_info", "paging")) {
      String at = "$." + holder;
      table.add(
          top(holder + "/next", Test.URL, "a pagination object", "next: \"" + at + ".next\""));
      table.add(
          top(
              holder + "/next_url",
              Test.URL,
              "a pagination object",
              "next: \"" + at + ".next_url\""));
      table.add(
          top(
              holder + "/next_page",
              Test.URL,
              "a pagination object",
              "next: \"" + at + ".next_page\""));
      table.add(
          top(holder + "/next_page", Test.NUMBER, "a pagination object", "page: {param: page}"));
      for (String flag : List.of("has_next_page", "hasNextPage")) {
        table.add(
            top(holder + "/" + flag, Test.TRUE, "a pagination object", "page: {param: page}"));
      }
    }
    table.add(
        new Signal(
            List.of("pageInfo", "hasNextPage"),
            Test.TRUE,
            "GraphQL",
            "cursor: {from: \"%1$s.pageInfo.endCursor\", until:"
                + " \"!response.body%2$s.pageInfo.hasNextPage\"}",
            true));
    return List.copyOf(table);
  }
}
