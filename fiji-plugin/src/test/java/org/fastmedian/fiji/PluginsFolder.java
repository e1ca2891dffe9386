package org.fastmedian.fiji;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An ImageJ plugins folder holding the command, the binding and the test helpers as jars, built
 * from wherever their classes were loaded (a classes folder under Maven's reactor, or a jar).
 */
final class PluginsFolder {
    private PluginsFolder() {}

    /** Makes {@code root}/plugins/ and returns {@code root}, the value of -Dplugins.dir. */
    static Path create(Path root) throws IOException, URISyntaxException {
        Path plugins = Files.createDirectories(root.resolve("plugins"));
        // The underscore makes ImageJ read plugins.config; the others are only put on the
        // class path, so their names have none.
        addJar(MedianCommand.class, plugins.resolve("fastmedian_plugin.jar"));
        addJar(org.fastmedian.FastMedian.class, plugins.resolve("fastmedian.jar"));
        addJar(MacroErrorProbe.class, plugins.resolve("fastmedian-tests.jar"));
        return root;
    }

    private static void addJar(Class<?> c, Path jar) throws IOException, URISyntaxException {
        Path source = Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isRegularFile(source)) {
            Files.copy(source, jar);
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(source)) {
            files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jarOut = new JarOutputStream(out)) {
            for (Path file : files) {
                jarOut.putNextEntry(new JarEntry(source.relativize(file).toString()));
                Files.copy(file, jarOut);
                jarOut.closeEntry();
            }
        }
    }
}
