package io.drover.core.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.driver.testdrivers.BadConfigDriver;
import io.drover.core.driver.testdrivers.SchemaConfigDriver;
import io.drover.core.driver.testdrivers.FailingInitDriver;
import io.drover.core.driver.testdrivers.FakeDriver;
import io.drover.core.driver.testdrivers.NotADriver;
import io.drover.core.driver.testdrivers.OtherDriver;
import io.drover.core.driver.testdrivers.ThrowingDriver;
import io.drover.driver.tck.VirtualTimers;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverRegistryTest {
    @TempDir
    Path dir;

    private final VirtualTimers timers = new VirtualTimers(Instant.parse("2024-01-01T00:00:00Z"));
    private DriverRegistry registry;

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
        }
    }

    private DriverRegistry load() {
        return load(Map.of());
    }

    private DriverRegistry load(Map<String, Map<String, Object>> configs) {
        registry = DriverRegistry.load(dir, configs, timers);
        return registry;
    }

    private Path jar(String name) {
        return dir.resolve(name);
    }

    @Test
    void aGoodPluginLoadsAndItsDriverIsUsable() throws Exception {
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("fake.jar"));

        load();

        assertThat(registry.problems()).isEmpty();
        assertThat(registry.names()).containsExactly("fake");
        TaskDriver driver = registry.driver("fake").orElseThrow();
        assertThat(((IsolatedDriver) driver).plugin().getClass().getClassLoader())
                .isNotSameAs(FakeDriver.class.getClassLoader());
        assertThat(registry.driver("fake")).containsSame(driver); // one cached instance
        assertThat(driver.awaitExit("t").toCompletableFuture().join().successful()).isTrue();
        assertThat(registry.driver("nope")).isEmpty();
        DriverInfo info = registry.drivers().get(0);
        assertThat(info.name()).isEqualTo("fake");
        assertThat(info.pluginId()).isEqualTo("fake-plugin");
        assertThat(info.version()).isEqualTo("1.2.3");
        assertThat(info.provider()).isEqualTo("Test Inc.");
        assertThat(info.pluginPath()).isEqualTo(jar("fake.jar"));
        assertThat(info.health()).isEqualTo(DriverHealth.healthy("config {}, host 0.1.0"));
    }

    @Test
    void pluginConfigReachesInitByDriverName() {
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("fake.jar"));

        load(Map.of("fake", Map.of("greeting", "hi"), "other", Map.of("ignored", true)));

        assertThat(registry.drivers().get(0).health().description()).isEqualTo("config {greeting=hi}, host 0.1.0");
    }

    @Test
    void aJarWithoutManifestIsOneProblemAndOthersStillLoad() {
        TestDriverJar.plugin("x").extension(OtherDriver.class).withoutManifest().writeTo(jar("a-nomanifest.jar"));
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("fake.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("a-nomanifest.jar")
                + ": no META-INF/MANIFEST.MF, so no Plugin-Id: not a plugin JAR; skipped");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aManifestWithoutPluginIdIsAProblem() {
        TestDriverJar.plugin("x").withoutAttribute("Plugin-Id").extension(FakeDriver.class).writeTo(jar("noid.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                jar("noid.jar") + ": MANIFEST.MF has no Plugin-Id: not a plugin JAR; skipped");
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void garbageNamedJarIsAProblem() throws Exception {
        Files.writeString(jar("x.jar"), "this is not a zip file");
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("y.jar"));

        load();

        assertThat(registry.problems()).singleElement().asString()
                .startsWith(jar("x.jar") + ": not a JAR file (").endsWith("); skipped").doesNotContain("\n");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aThrowingConstructorIsAProblemNamingItsMessage() {
        TestDriverJar.plugin("both").extension(ThrowingDriver.class).extension(OtherDriver.class)
                .writeTo(jar("both.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("both.jar") + ": driver class "
                + ThrowingDriver.class.getName() + " could not be created: constructor threw IllegalStateException: "
                + "no fake hardware here; skipped");
        assertThat(registry.names()).containsExactly("other");
    }

    @Test
    void aPluginRequiringANewerDroverIsAProblem() {
        TestDriverJar.plugin("future").attribute("Plugin-Requires", ">=99.0.0").extension(FakeDriver.class)
                .writeTo(jar("future.jar"));
        TestDriverJar.plugin("exact").attribute("Plugin-Requires", "98.0.0").extension(OtherDriver.class)
                .writeTo(jar("exact.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                jar("exact.jar") + ": plugin \"exact\" requires Drover >=98.0.0, this is 0.1.0; skipped",
                jar("future.jar") + ": plugin \"future\" requires Drover >=99.0.0, this is 0.1.0; skipped");
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void unparsablePluginRequiresAndMissingPluginClassAreProblems() {
        TestDriverJar.plugin("odd").attribute("Plugin-Requires", "banana").extension(FakeDriver.class)
                .writeTo(jar("odd.jar"));
        TestDriverJar.plugin("noclass").attribute("Plugin-Class", "com.example.Missing").extension(OtherDriver.class)
                .writeTo(jar("noclass.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                jar("noclass.jar") + ": plugin \"noclass\": its Plugin-Class com.example.Missing cannot be created "
                        + "(missing, abstract, not an org.pf4j.Plugin, or its constructor failed); skipped",
                jar("odd.jar") + ": Plugin-Requires \"banana\" is not a version range like \">=0.1.0\"; skipped");
    }

    @Test
    void developmentModeIsNeverUsed() {
        String previous = System.getProperty("pf4j.mode");
        System.setProperty("pf4j.mode", "development");
        try {
            TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("fake.jar"));
            load();
            assertThat(registry.names()).containsExactly("fake");
        } finally {
            if (previous == null) {
                System.clearProperty("pf4j.mode");
            } else {
                System.setProperty("pf4j.mode", previous);
            }
        }
    }

    @Test
    void twoDriversWithTheSameNameKeepTheFirstByFileName() {
        TestDriverJar.plugin("fake-b").extension(FakeDriver.class).writeTo(jar("b.jar"));
        TestDriverJar.plugin("fake-a").extension(FakeDriver.class).writeTo(jar("a.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("b.jar") + ": driver \"fake\" ("
                + FakeDriver.class.getName() + ") is already provided by " + jar("a.jar") + "; skipped");
        assertThat(registry.drivers()).extracting(DriverInfo::pluginId).containsExactly("fake-a");
    }

    @Test
    void ofTwoVersionsOfOnePluginTheHighestLoadsWhateverTheFileOrder() {
        TestDriverJar.plugin("same").attribute("Plugin-Version", "1.10.0").extension(OtherDriver.class)
                .writeTo(jar("a-new.jar"));
        TestDriverJar.plugin("same").attribute("Plugin-Version", "1.9.2").extension(FakeDriver.class)
                .writeTo(jar("b-old.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("b-old.jar") + ": plugin \"same\" 1.9.2 is older than"
                + " 1.10.0 in a-new.jar, which loads instead; skipped");
        assertThat(registry.names()).containsExactly("other");
        assertThat(registry.drivers().get(0).version()).isEqualTo("1.10.0");
    }

    @Test
    void twoPluginsWithTheSameIdKeepTheFirst() {
        TestDriverJar.plugin("same").extension(FakeDriver.class).writeTo(jar("a.jar"));
        TestDriverJar.plugin("same").extension(OtherDriver.class).writeTo(jar("b.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                jar("b.jar") + ": plugin \"same\" is already loaded from " + jar("a.jar") + "; skipped");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aPluginWithoutDriverIsAProblem() {
        TestDriverJar.plugin("empty").extension(NotADriver.class).writeTo(jar("empty.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("empty.jar") + ": plugin \"empty\" has no TaskDriver "
                + "extension (no class in its META-INF/extensions.idx implements io.drover.driver.api.TaskDriver); "
                + "skipped");
    }

    @Test
    void aPluginBundlingTheApiIsToldSo() {
        TestDriverJar.plugin("bundled").extension(FakeDriver.class).bundlingTheApi().writeTo(jar("bundled.jar"));

        load();

        assertThat(registry.problems()).containsExactly(jar("bundled.jar") + ": plugin \"bundled\" bundles its own "
                + "copy of io.drover.driver.api.TaskDriver, so its drivers are not TaskDrivers to Drover; build it "
                + "with drover-driver-api in provided scope; skipped");
    }

    @Test
    void hostClasspathIndexIsIgnored() throws Exception {
        // test-classes has a META-INF/extensions.idx listing FakeDriver and OtherDriver, and this JAR carries both
        // classes but no index of its own: PF4J would fall back to the host's index.
        assertThat(getClass().getClassLoader().getResource("META-INF/extensions.idx")).isNotNull();
        TestDriverJar.plugin("no-index").writeTo(jar("no-index.jar"));

        load();

        assertThat(registry.names()).isEmpty();
        assertThat(registry.problems()).singleElement().asString().contains("has no TaskDriver extension");
    }

    @Test
    void initFailureIsAProblemAndTheDriverIsSkipped() {
        TestDriverJar.plugin("failing").extension(FailingInitDriver.class).extension(OtherDriver.class)
                .writeTo(jar("failing.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                jar("failing.jar") + ": driver \"failing\" failed to initialise: license key missing; skipped");
        assertThat(registry.names()).containsExactly("other");
    }

    @Test
    void aDriverRefusingItsPluginConfigIsAConfigProblemNotASkippedPlugin() {
        TestDriverJar.plugin("regional").extension(BadConfigDriver.class).extension(OtherDriver.class)
                .writeTo(jar("regional.jar"));

        load(Map.of("regional", Map.of("region", "mars")));

        assertThat(registry.configProblems()).containsExactly(new PluginConfigProblem("regional", "region",
                "must be \"eu\", found \"mars\"", jar("regional.jar")));
        assertThat(registry.configProblems().get(0).describe())
                .isEqualTo("plugin \"regional\" > config > region: must be \"eu\", found \"mars\"");
        assertThat(registry.problems()).isEmpty();
        assertThat(registry.names()).containsExactly("other");
    }

    @Test
    void aDriverAcceptingItsPluginConfigLoads() {
        TestDriverJar.plugin("regional").extension(BadConfigDriver.class).writeTo(jar("regional.jar"));

        load(Map.of("regional", Map.of("region", "eu")));

        assertThat(registry.configProblems()).isEmpty();
        assertThat(registry.names()).containsExactly("regional");
    }

    @Test
    void aPluginConfigSchemaReportsEveryProblemBeforeInit() {
        TestDriverJar.plugin("schematic").extension(SchemaConfigDriver.class).extension(OtherDriver.class)
                .writeTo(jar("schematic.jar"));

        load(Map.of("schematic", Map.of("region", "mars", "retries", "many", "colour", "red")));

        assertThat(registry.configProblems()).extracting(PluginConfigProblem::describe).containsExactly(
                "plugin \"schematic\" > config > colour: unknown key (allowed: region, retries, timeout)",
                "plugin \"schematic\" > config > region: must be one of \"eu\", \"us\", found \"mars\"",
                "plugin \"schematic\" > config > retries: must be a whole number, found \"many\"");
        assertThat(registry.problems()).isEmpty();
        assertThat(registry.names()).containsExactly("other");
    }

    @Test
    void aPluginConfigSchemaHandsInitTheConvertedBlockWithDefaults() {
        TestDriverJar.plugin("schematic").extension(SchemaConfigDriver.class).writeTo(jar("schematic.jar"));

        load(Map.of("schematic", Map.of("region", "eu", "retries", "2")));

        assertThat(registry.configProblems()).isEmpty();
        assertThat(registry.drivers().get(0).health().description())
                .isEqualTo("config {region=eu, retries=2, timeout=PT5S}, host " + io.drover.core.DroverVersion.VERSION);
    }

    @Test
    void aThrowingHealthCheckReadsUnhealthy() {
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(jar("fake.jar"));

        load(Map.of("fake", Map.of("health_throws", true)));

        assertThat(registry.drivers().get(0).health())
                .isEqualTo(DriverHealth.unhealthy("health check failed: IllegalStateException: probe exploded"));
    }

    @Test
    void missingDirIsOneProblem() {
        registry = DriverRegistry.load(dir.resolve("nope"), Map.of(), timers);

        assertThat(registry.problems()).containsExactly("plugin_dir " + dir.resolve("nope") + " does not exist");
        assertThat(registry.names()).isEmpty();
        assertThat(registry.drivers()).isEmpty();
    }

    @Test
    void otherFilesAreIgnoredAndZipsReported() throws Exception {
        Files.writeString(dir.resolve("README.md"), "plugins go here");
        Files.writeString(dir.resolve("old.zip"), "zip");
        Files.createDirectory(dir.resolve("subdir"));

        load();

        assertThat(registry.problems()).containsExactly(
                dir.resolve("old.zip") + ": ZIP plugins are not supported, only JARs; skipped");
    }

    @Test
    void closeClosesDriversOnceAndReleasesThePlugins() throws Exception {
        TestDriverJar.plugin("other").extension(OtherDriver.class).writeTo(jar("other.jar"));
        load();
        TaskDriver other = registry.driver("other").orElseThrow();

        registry.close();
        registry.close();

        assertThat(other.health().description()).isEqualTo("closed 1 times");
        assertThat(registry.names()).isEmpty();
        assertThat(registry.driver("other")).isEmpty();
        assertThat(registry.drivers()).isEmpty();
        Files.delete(jar("other.jar")); // nothing holds it any more (matters on Windows; cheap to check)
    }

    @Test
    void problemsAreListedInFileOrder() throws Exception {
        Files.writeString(jar("c.jar"), "junk");
        TestDriverJar.plugin("x").withoutManifest().writeTo(jar("a.jar"));
        TestDriverJar.plugin("b").extension(ThrowingDriver.class).writeTo(jar("b.jar"));

        load();

        List<String> problems = registry.problems();
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith(jar("a.jar") + ": ");
        assertThat(problems.get(1)).startsWith(jar("b.jar") + ": ");
        assertThat(problems.get(2)).startsWith(jar("c.jar") + ": ");
    }
}
