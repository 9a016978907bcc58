package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code per_page}, {@code next_token} and {@code filter} on {@code /v1/jobs} and {@code /v1/allocations}. */
class ListPagingTest extends RunningAgentTest {
    @BeforeEach
    void registerJobs() throws Exception {
        for (var job : List.of(batch("alpha", 5, task("web", "run_for", "1ms")),
                batch("beta", 3, task("web", "run_for", "1h")), batch("gamma", 2, task("web", "run_for", "1ms")))) {
            api.agent.jobs().register(job).placed().forEach(a -> { });
        }
        Await.until("alpha and gamma complete", () -> api.agent.engine().allocations().stream()
                .filter(a -> !a.jobId().equals("beta")).allMatch(a -> a.terminal())
                && api.agent.engine().allocations().stream().filter(a -> a.jobId().equals("beta"))
                        .allMatch(a -> a.clientStatus().wireName().equals("running")));
    }

    static String q(String s) {
        // %20, not '+': the agent reads '+' in a query literally (IDs and names may hold it), as the UI encodes
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private List<String> ids(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.path("ID").asText()));
        return out;
    }

    @Test
    void pagesFollowTheNextTokenInIdOrderUntilNoneIsLeft() throws Exception {
        List<String> all = ids(api.get("/v1/allocations").json());
        assertThat(all).hasSize(10);
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            HttpResponse<String> r = api.client.send(api.request("/v1/allocations?per_page=3"
                    + (token == null ? "" : "&next_token=" + token)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            List<String> page = ids(TestAgent.JSON.readTree(r.body()));
            assertThat(page.size()).isLessThanOrEqualTo(3);
            seen.addAll(page);
            token = r.headers().firstValue("X-Nomad-NextToken").orElse(null);
            pages++;
        } while (token != null);
        assertThat(pages).isEqualTo(4);
        assertThat(seen).isSorted().containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void filtersSelectByFieldsAndCombine() throws Exception {
        assertThat(api.get("/v1/allocations?filter=" + q("JobID == \"alpha\"")).json()).hasSize(5);
        assertThat(api.get("/v1/allocations?filter=" + q("ClientStatus == \"running\"")).json()).hasSize(3)
                .allSatisfy(a -> assertThat(a.path("JobID").asText()).isEqualTo("beta"));
        assertThat(api.get("/v1/allocations?filter=" + q("JobID == \"alpha\" or JobID contains \"mm\"")).json())
                .hasSize(7);
        assertThat(api.get("/v1/allocations?filter=" + q("not (JobID == \"alpha\" or JobID == \"gamma\")")
                + "&per_page=2").json()).hasSize(2);
        JsonNode jobs = api.get("/v1/jobs?filter=" + q("Status == \"running\"")).json();
        assertThat(ids(jobs)).containsExactly("beta");
        assertThat(jobs.get(0).path("Allocations").path("Running").asInt()).as("the stub as before").isEqualTo(3);
        assertThat(ids(api.get("/v1/jobs?filter=" + q("ID contains \"a\" and Type == \"batch\"") + "&per_page=2")
                .json())).containsExactly("alpha", "beta");
    }

    @Test
    void withoutParametersTheListsAnswerAsBefore() throws Exception {
        HttpResponse<String> r = api.client.send(api.request("/v1/jobs").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.headers().firstValue("X-Nomad-NextToken")).isEmpty();
        assertThat(TestAgent.JSON.readTree(r.body())).hasSize(3);
        assertThat(api.get("/v1/allocations?prefix=zzz").json()).isEmpty();
    }

    @Test
    void badParametersAreA400NamingThem() throws Exception {
        TestAgent.Resp r = api.get("/v1/allocations?filter=" + q("Jobid == \"alpha\""));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.error()).contains("unknown selector \"Jobid\"", "JobID");
        assertThat(api.get("/v1/jobs?per_page=0").error()).contains("per_page must be an integer from 1 to 10000");
        assertThat(api.get("/v1/jobs?per_page=x").status()).isEqualTo(400);
        assertThat(api.get("/v1/jobs?filter=" + q("ID ==")).error()).contains("expected a value");
    }
}
