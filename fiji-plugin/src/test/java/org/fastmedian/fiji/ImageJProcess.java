package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a macro in Debian's ImageJ, under Xvfb (ImageJ needs a display to build its menus), with
 * a plugins folder holding the commands (PluginsFolder), as a user's macro would run.
 */
final class ImageJProcess {
    private ImageJProcess() {}

    /** Skips the calling test class where ImageJ or xvfb-run is missing. */
    static void assumeAvailable() {
        Path imagej = imagejJar();
        assumeTrue(Files.isRegularFile(imagej), "no ImageJ at " + imagej + " (Debian: imagej)");
        assumeTrue(onPath("xvfb-run"), "no xvfb-run on PATH (Debian: xvfb, xauth)");
    }

    /** The shared test images (-Dfastmedian.data), checked to exist. */
    static Path data() {
        Path data = Paths.get(System.getProperty("fastmedian.data", "../../shared/data"));
        assertTrue(Files.isDirectory(data), "no test images at " + data.toAbsolutePath()
                + "; set -Dfastmedian.data=/path/to/shared/data");
        return data;
    }

    /**
     * Runs {@code macro} in batch mode in a fresh ImageJ whose files go under {@code dir}, and
     * returns everything it printed; fails the test when ImageJ does not finish in time
     * (-Dimagej.timeout.seconds) or exits with an error.
     */
    static String run(Path dir, String macro) throws Exception {
        return run(dir, macro, System.getProperty("fastmedian.library"));
    }

    /** As run(dir, macro), with ImageJ given {@code -Dfastmedian.library=library} (if not null). */
    static String run(Path dir, String macro, String library) throws Exception {
        Files.createDirectories(dir);
        Path macroFile = dir.resolve("cases.ijm");
        Files.write(macroFile, macro.getBytes(StandardCharsets.UTF_8));
        Path log = dir.resolve("imagej.log");
        List<String> command = new ArrayList<>(List.of("xvfb-run", "-a",
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dplugins.dir=" + PluginsFolder.create(dir.resolve("imagej"))));
        if (library != null) command.add("-Dfastmedian.library=" + library);
        command.addAll(List.of("-cp", imagejJar().toString(), "ij.ImageJ", "-batch",
                macroFile.toString()));
        Process imagej = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long timeout = Long.getLong("imagej.timeout.seconds", 300);
        boolean finished = imagej.waitFor(timeout, TimeUnit.SECONDS);
        if (!finished) {
            // xvfb-run is a script: end the Xvfb server and ImageJ it started too.
            imagej.descendants().forEach(ProcessHandle::destroyForcibly);
            imagej.destroyForcibly();
        }
        String output = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        if (!finished) fail("ImageJ did not finish in " + timeout + " s; it printed:\n" + output);
        assertEquals(0, imagej.exitValue(), "ImageJ's exit status; it printed:\n" + output);
        return output;
    }

    private static Path imagejJar() {
        return Paths.get(System.getProperty("imagej.jar", "/usr/share/java/ij.jar"));
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator))
            if (Files.isExecutable(Paths.get(dir, program))) return true;
        return false;
    }
}
