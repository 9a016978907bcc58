package io.drover.plugins.rawexec;

import io.drover.process.WallTimers;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessLeakCheck;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.pf4j.JarPluginManager;
import org.pf4j.PluginManager;

/**
 * Runs after packaging, on the shaded plugin JAR: two plugins that each bundle jnr-ffi and jffi (the raw_exec
 * JAR, and a copy of it under another Plugin-Id) load in one JVM through PF4J, each in its own class loader,
 * each loads jffi's native stub, and both run processes. This is the evidence for shading the process
 * supervision into each plugin rather than putting it on the host's class path.
 */
@ExtendWith(ProcessLeakCheck.class)
class PluginBundlingIT {
    @TempDir
    Path dir;

    @Test
    void twoPluginsBundlingJffiRunSideBySide() throws Exception {
        Path jar = Path.of("target", "drover-driver-raw-exec-0.1.0.jar");
        assertThat(jar).exists();
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        Files.copy(jar, plugins.resolve("raw-exec.jar"));
        copyWithPluginId(jar, plugins.resolve("raw-exec-twin.jar"), "raw_exec_twin");

        PluginManager manager = new JarPluginManager(plugins);
        manager.setSystemVersion("0.1.0");
        manager.loadPlugins();
        manager.startPlugins();
        try {
            List<TaskDriver> first = manager.getExtensions(TaskDriver.class, "raw_exec");
            List<TaskDriver> twin = manager.getExtensions(TaskDriver.class, "raw_exec_twin");
            assertThat(first).hasSize(1);
            assertThat(twin).hasSize(1);
            ClassLoader a = first.get(0).getClass().getClassLoader();
            ClassLoader b = twin.get(0).getClass().getClassLoader();
            assertThat(a).isNotSameAs(b);
            assertThat(a.loadClass("com.kenai.jffi.Foreign")).isNotSameAs(b.loadClass("com.kenai.jffi.Foreign"));
            for (TaskDriver driver : List.of(first.get(0), twin.get(0))) {
                driver.init(new DriverContext(Map.of("enabled", true), new WallTimers(), "0.1.0"));
            }
            for (TaskDriver driver : List.of(first.get(0), twin.get(0))) {
                var task = RawExecFixture.task(dir, "bundling/" + driver.getClass().getClassLoader().hashCode(),
                        Map.of("command", "sh", "args", List.of("-c", "exit 4")), Map.of());
                driver.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
                ExitResult exit = driver.awaitExit(task.taskId()).toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(exit).isEqualTo(ExitResult.code(4));
                driver.destroy(task.taskId());
                driver.close();
            }
        } finally {
            manager.stopPlugins();
            manager.unloadPlugins();
        }
    }

    private static void copyWithPluginId(Path from, Path to, String pluginId) throws Exception {
        try (JarFile in = new JarFile(from.toFile());
                OutputStream file = Files.newOutputStream(to)) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().putValue("Plugin-Id", pluginId);
            try (JarOutputStream out = new JarOutputStream(file, manifest)) {
                Enumeration<JarEntry> entries = in.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equals(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
    }
}
