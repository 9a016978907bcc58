package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The web UI's routes: the shell, assets, the redirect, their headers, and what needs the token. */
class UiRoutesTest {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    @TempDir
    Path tmp;
    TestAgent api;

    @AfterEach
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    private HttpResponse<String> raw(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(api.uri(path)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return api.client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theRootRedirectsToTheUiAndEveryUiPathAnswersTheShellWithTheCsp() throws Exception {
        api = TestAgent.start(tmp);
        HttpResponse<String> root = raw("/");
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).hasValue("/ui/");
        for (String path : new String[] {"/ui", "/ui/", "/ui/jobs", "/ui/jobs/my-job", "/ui/allocations/0c02c63d",
                "/ui/plugins", "/ui/no/such/page"}) {
            HttpResponse<String> r = raw(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).as(path).hasValue("text/html; charset=utf-8");
            assertThat(r.body()).as(path).contains("<script type=\"module\" src=\"/ui/assets/app.js\">");
            assertThat(r.headers().firstValue("Content-Security-Policy")).as(path).hasValue(CSP);
            assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        }
        assertThat(raw("/").headers().firstValue("Content-Security-Policy")).hasValue(CSP);
    }

    @Test
    void assetsAreServedByPlainNameOnlyWithTheirTypes() throws Exception {
        api = TestAgent.start(tmp);
        HttpResponse<String> js = raw("/ui/assets/app.js");
        assertThat(js.statusCode()).isEqualTo(200);
        assertThat(js.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(js.body()).contains("import");
        assertThat(raw("/ui/assets/style.css").headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
        assertThat(raw("/ui/assets/favicon.svg").headers().firstValue("Content-Type")).hasValue("image/svg+xml");
        for (String bad : new String[] {"/ui/assets/nope.js", "/ui/assets/App.js", "/ui/assets/..%2Fui%2Fapp.js",
                "/ui/assets/../../../../etc/passwd", "/ui/assets/%2e%2e/app.js", "/ui/assets/app.js%00.css",
                "/ui/assets/io/drover/agent/ui/app.js", "/ui/assets/Agent.class"}) {
            HttpResponse<String> r = raw(bad);
            assertThat(r.statusCode()).as(bad).isIn(400, 404); // Jetty itself refuses some (an ambiguous path)
            assertThat(r.body()).as(bad).doesNotContain("import", "root:");
        }
    }

    @Test
    void withATokenTheUiShellLoadsButNoDataAndNoWriteWithoutIt() throws Exception {
        api = TestAgent.start(tmp, AclTest.TOKEN, null);
        assertThat(raw("/ui/jobs").statusCode()).isEqualTo(200);
        assertThat(raw("/ui/assets/api.js").statusCode()).isEqualTo(200);
        assertThat(raw("/").statusCode()).isEqualTo(302);
        for (String path : new String[] {"/v1/jobs", "/v1/allocations?per_page=1", "/v1/event/stream",
                "/v1/plugins", "/v1/nothing"}) {
            assertThat(raw(path).statusCode()).as(path).isEqualTo(401);
        }
        // the UI's paths take no other method: not a way around the token
        for (String method : new String[] {"POST", "PUT", "DELETE"}) {
            HttpResponse<String> r = api.client.send(HttpRequest.newBuilder(api.uri("/ui/jobs"))
                    .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(method).isEqualTo(401);
        }
        assertThat(raw("/v1/jobs", "X-Nomad-Token", AclTest.TOKEN).statusCode()).isEqualTo(200);
    }

    @Test
    void theBrowserRulesStillGuardTheUi() throws Exception {
        api = TestAgent.start(tmp);
        assertThat(raw("/ui/jobs", "Origin", "http://evil.example").statusCode()).isEqualTo(403);
        int p = api.agent.httpPort();
        // DNS rebinding: a page that renamed itself to the agent's address is refused the UI and the API alike
        assertThat(RawHttp.send(p, "GET", "/ui/jobs", null, "Host: evil.example:" + p).status()).isEqualTo(403);
        assertThat(RawHttp.send(p, "GET", "/ui/assets/app.js", null, "Host: evil.example").status()).isEqualTo(403);
        String port = String.valueOf(api.agent.httpPort());
        // a same-origin request, as the UI's own fetch() sends it, passes
        assertThat(raw("/v1/jobs", "Origin", "http://127.0.0.1:" + port).statusCode()).isEqualTo(200);
        assertThat(raw("/v1/jobs", "Origin", "http://localhost.evil:" + port).statusCode()).isEqualTo(403);
    }
}
