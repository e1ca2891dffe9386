package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.fastmedian.FastMedian;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs "Temporal Median (fastmedian)..." from a macro in Debian's ImageJ (batch mode, under
 * Xvfb) on the shared time-lapse movie and images made from it (8-bit, 32-bit with NaN and
 * infinities, RGB, two hyperstacks), and compares every result pixel for pixel with the output
 * of {@code fastmedian temporal} (the CLI, -Dfastmedian.cli) on the same frames. Then each bad
 * argument in an ImageJ of its own (an error ends the macro): an error naming it, no new image,
 * the original unchanged.
 */
class TemporalMacroTest {
    private static final String MOVIE = "cancer_cell_migration_crop.tif";  // 16-bit, 48 frames
    private static final String SINGLE = "embryos_grey.tif";                // one 8-bit image
    private static final String COMMAND = "Temporal Median (fastmedian)...";

    /** Label (input, then the macro options), input name, options. */
    private static final String[][] CASES = {
        {"u16 window=1", "u16", "window=1 mode=median"},
        {"u16 window=2", "u16", "window=2 mode=median"},
        {"u16 window=9", "u16", "window=9"},  // mode median and offset 0 by default
        {"u16 window=10", "u16", "window=10 mode=median"},
        {"u16 window=48", "u16", "window=48 mode=median"},
        {"u16 window=9 subtract 100", "u16", "window=9 mode=subtract offset=100"},
        {"u16 window=10 subtract -20.7", "u16", "window=10 mode=subtract offset=-20.7"},
        {"u16 window=48 subtract 3", "u16", "window=48 mode=subtract offset=3"},
        {"u8 window=5", "u8", "window=5 mode=median"},
        {"u8 window=4 subtract 20.5", "u8", "window=4 mode=subtract offset=20.5"},
        {"f32 window=9", "f32", "window=9 mode=median"},
        {"f32 window=8 subtract -2.5", "f32", "window=8 mode=subtract offset=-2.5"},
        {"f32 window=48", "f32", "window=48 mode=median"},
        {"rgb window=7", "rgb", "window=7 mode=median"},
        {"rgb window=6 subtract 30", "rgb", "window=6 mode=subtract offset=30"},
        {"hyperstack czt window=5 subtract 10", "hyper_czt", "window=5 mode=subtract offset=10"},
        {"hyperstack czt window=8", "hyper_czt", "window=8 mode=median"},
        {"hyperstack cz window=7", "hyper_cz", "window=7 mode=median"},
        {"single image window=1", "single", "window=1 mode=median"},
    };

    /** Label, image, options, the start of the error message. */
    private static final String[][] ERRORS = {
        {"window longer than the movie", MOVIE, "window=49",
            "window must be a whole number of frames in 1..48 (the slices), got 49"},
        {"window not a whole number", MOVIE, "window=2.5",
            "window must be a whole number of frames in 1..48 (the slices), got 2.5"},
        {"window 0", MOVIE, "window=0",
            "window must be a whole number of frames in 1..48 (the slices), got 0"},
        {"window on one image", SINGLE, "window=3",
            "window must be a whole number of frames in 1..1 (one image), got 3"},
        {"unknown mode", MOVIE, "window=3 mode=mean",
            "mode must be median or subtract, got 'mean'"},
        {"offset out of range", MOVIE, "window=3 mode=subtract offset=2e9",
            "offset must be finite and within +-1e9"},
    };

    private static Path dir;
    private static Path data;
    private static String output;  // everything ImageJ printed

    @BeforeAll
    static void runImageJ(@TempDir Path tmp) throws Exception {
        ImageJProcess.assumeAvailable();
        dir = tmp;
        data = ImageJProcess.data();
        StringBuilder m = new StringBuilder("setBatchMode(true);\n");
        m.append("prepareInputs(\"").append(path(data.resolve(MOVIE))).append("\", \"")
                .append(path(dir)).append("/\");\n");
        for (String[] c : CASES)
            m.append("temporal(\"").append(c[0]).append("\", \"").append(path(input(c[1])))
                    .append("\", \"").append(c[2]).append("\", \"")
                    .append(path(result(c[0]))).append("\");\n");
        try (InputStream in = TemporalMacroTest.class.getResourceAsStream("temporal_cases.ijm")) {
            m.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        output = ImageJProcess.run(dir.resolve("run"), m.toString());
    }

    @TestFactory
    List<DynamicTest> equalsTheCli() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : CASES)
            tests.add(DynamicTest.dynamicTest(c[0], () -> checkCase(c[0], c[1], c[2])));
        return tests;
    }

    // One log line per run (backend, device, time); on a machine without a GPU it says why.
    @Test
    void eachRunLogsItsBackend() {
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        String expected = gpu ? " on cuda:0 (" : " on cpu (CPU) in ";
        long lines = output.lines()
                .filter(l -> l.startsWith("Temporal Median (fastmedian): window ")
                        && l.contains(expected))
                .count();
        assertEquals(CASES.length, lines, "log lines with \"" + expected + "\"; ImageJ printed:\n"
                + output);
        assertTrue(output.contains("Temporal Median (fastmedian): window 10, subtract offset "
                + "-20.7, 48 frames (the slices) x 1 series on "), output);
        assertTrue(output.contains("Temporal Median (fastmedian): window 5, subtract offset 10, "
                + "8 frames (the time points) x 6 series on "), output);
        if (!gpu) assertTrue(output.contains("no GPU used: " + FastMedian.cudaUnavailableReason()));
    }

    @Test
    void theNewImageIsNamedAfterTheOriginalAndTheFilter() {
        String base = MOVIE.replace(".tif", "");
        assertTrue(output.contains("RAN u16 window=9: " + base + " temporal median 9\n"), output);
        assertTrue(output.contains("RAN u16 window=9 subtract 100: " + base
                + " minus temporal median 9\n"), output);
    }

    // In a macro, the command's IJ.error aborts the macro; the probe records the message. So
    // each case runs in an ImageJ of its own.
    @TestFactory
    List<DynamicTest> badArgumentsAreErrorsAndChangeNothing() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] e : ERRORS)
            tests.add(DynamicTest.dynamicTest(e[0], () -> {
                String macro = "setBatchMode(true);\nopen(\"" + path(data.resolve(e[1]))
                        + "\");\ncall(\"" + MacroErrorProbe.class.getName() + ".expectError\", \""
                        + e[0] + "\", \"" + COMMAND + "\", \"" + e[2] + "\");\n";
                String printed = ImageJProcess.run(dir.resolve("error " + e[0]), macro);
                String expected = "PASS " + e[0] + ": " + e[3];
                assertTrue(printed.lines().anyMatch(l -> l.startsWith(expected)),
                        "no \"" + expected + "\"; ImageJ printed:\n" + printed);
            }));
        return tests;
    }

    private static void checkCase(String label, String inputName, String options)
            throws Exception {
        assertTrue(output.lines().anyMatch(l -> l.startsWith("RAN " + label + ": ")),
                "no \"RAN " + label + "\"; ImageJ printed:\n" + output);
        ImagePlus got = open(result(label));
        ImagePlus original = open(input(inputName));
        assertSamePixels(original, open(Paths.get(result(label) + ".original.tif")),
                "the original after the run");
        assertEquals(original.getStackSize(), got.getStackSize(), "slices");
        assertEquals(original.getBitDepth(), got.getBitDepth(), "bit depth");
        assertEquals(List.of(original.getNChannels(), original.getNSlices(),
                original.getNFrames()), List.of(got.getNChannels(), got.getNSlices(),
                got.getNFrames()), "channels, slices, frames");
        Map<String, String> o = options(options);
        if (inputName.equals("rgb")) {
            String[] colours = {"red", "green", "blue"};
            for (int k = 0; k < 3; k++) {
                ImagePlus want = cli(input("rgb_" + colours[k]), o, colours[k]);
                assertSamePixels(want, channel(got, 16 - 8 * k), colours[k]);
            }
            return;
        }
        if (original.getStackSize() == 1 || !original.isHyperStack()) {
            assertSamePixels(cli(input(inputName), o, "cli"), got, "the CLI's output");
            return;
        }
        // A hyperstack: each series of frames (time points, else slices) through the CLI.
        boolean time = original.getNFrames() > 1;
        int frames = time ? original.getNFrames() : original.getNSlices();
        int series = original.getNChannels() * (time ? original.getNSlices() : 1);
        for (int s = 0; s < series; s++) {
            int c = s % original.getNChannels() + 1, z = s / original.getNChannels() + 1;
            ImageStack in = new ImageStack(original.getWidth(), original.getHeight());
            ImageStack out = new ImageStack(original.getWidth(), original.getHeight());
            for (int t = 1; t <= frames; t++) {
                int index = time ? original.getStackIndex(c, z, t)
                                 : original.getStackIndex(c, t, 1);
                in.addSlice("", original.getStack().getPixels(index));
                out.addSlice("", got.getStack().getPixels(index));
            }
            Path seriesIn = dir.resolve(label + " series " + s + ".tif");
            assertTrue(new FileSaver(new ImagePlus("in", in)).saveAsTiffStack(seriesIn.toString()));
            assertSamePixels(cli(seriesIn, o, "series " + s), new ImagePlus("out", out),
                    "series " + s + " (channel " + c + (time ? ", slice " + z : "") + ")");
        }
    }

    // `fastmedian temporal` on `in` with the options of the macro.
    private static ImagePlus cli(Path in, Map<String, String> options, String name)
            throws Exception {
        Path cli = Paths.get(System.getProperty("fastmedian.cli", "fastmedian"));
        assertTrue(Files.isExecutable(cli), "no CLI at " + cli.toAbsolutePath()
                + "; set -Dfastmedian.cli=/path/to/fastmedian (build/native/src/cli/fastmedian)");
        Path out = dir.resolve(in.getFileName() + " " + name + " " + options + ".cli.tif");
        String mode = options.getOrDefault("mode", "median");
        List<String> command = new ArrayList<>(List.of(cli.toString(), "temporal", in.toString(),
                out.toString(), "--window", options.get("window"), "--mode", mode));
        if (mode.equals("subtract"))  // the CLI takes --offset only there
            command.addAll(List.of("--offset", options.getOrDefault("offset", "0")));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the CLI did not finish: " + command);
        assertEquals(0, p.exitValue(), command + " printed:\n" + printed);
        return open(out);
    }

    private static Map<String, String> options(String options) {
        Map<String, String> o = new HashMap<>();
        for (String kv : options.split(" ")) o.put(kv.split("=")[0], kv.split("=")[1]);
        return o;
    }

    // One channel of an RGB stack as an 8-bit stack.
    private static ImagePlus channel(ImagePlus rgb, int shift) {
        ImageStack out = new ImageStack(rgb.getWidth(), rgb.getHeight());
        for (int i = 1; i <= rgb.getStackSize(); i++) {
            int[] pixels = (int[]) rgb.getStack().getPixels(i);
            byte[] c = new byte[pixels.length];
            for (int j = 0; j < c.length; j++) c[j] = (byte) (pixels[j] >> shift);
            out.addSlice("", c);
        }
        return new ImagePlus("channel", out);
    }

    /** Same slices with the same bits (NaN payloads and -0.0 count), else where they differ. */
    private static void assertSamePixels(ImagePlus want, ImagePlus got, String what) {
        assertEquals(want.getStackSize(), got.getStackSize(), what + ": slices");
        for (int i = 1; i <= want.getStackSize(); i++) {
            Object w = want.getStack().getPixels(i), g = got.getStack().getPixels(i);
            assertEquals(w.getClass(), g.getClass(), what + ": pixel type");
            Optional<String> difference = firstDifference(w, g);
            int slice = i;
            difference.ifPresent(d -> {
                throw new AssertionError(what + ": slice " + slice + " differs at " + d);
            });
        }
    }

    private static Optional<String> firstDifference(Object want, Object got) {
        int n = java.lang.reflect.Array.getLength(want);
        if (n != java.lang.reflect.Array.getLength(got)) return Optional.of("the size");
        for (int j = 0; j < n; j++) {
            long w = bits(want, j), g = bits(got, j);
            if (w != g)
                return Optional.of("pixel " + j + ": want " + java.lang.reflect.Array.get(want, j)
                        + " (bits " + Long.toHexString(w) + "), got "
                        + java.lang.reflect.Array.get(got, j) + " (bits " + Long.toHexString(g)
                        + ")");
        }
        return Optional.empty();
    }

    private static long bits(Object pixels, int j) {
        if (pixels instanceof byte[]) return ((byte[]) pixels)[j] & 0xff;
        if (pixels instanceof short[]) return ((short[]) pixels)[j] & 0xffff;
        if (pixels instanceof float[]) return Float.floatToRawIntBits(((float[]) pixels)[j]);
        return ((int[]) pixels)[j] & 0xffffffffL;
    }

    private static ImagePlus open(Path tif) throws IOException {
        assertTrue(Files.isRegularFile(tif), "no " + tif);
        ImagePlus imp = IJ.openImage(tif.toString());
        assertTrue(imp != null, "ImageJ cannot open " + tif);
        return imp;
    }

    private static Path input(String name) {
        if (name.equals("u16")) return data.resolve(MOVIE);
        if (name.equals("single")) return data.resolve(SINGLE);
        return dir.resolve("in_" + name + ".tif");
    }

    private static Path result(String label) {
        return dir.resolve("out " + label + ".tif");
    }

    private static String path(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }
}
