package org.fastmedian.fiji;

import static org.fastmedian.fiji.PixelAssert.assertSamePixels;
import static org.fastmedian.fiji.PixelAssert.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastmedian.FastMedian;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs "Background Subtraction (fastmedian)..." from a macro in Debian's ImageJ (batch mode,
 * under Xvfb) on the shared images (8-bit, the 16-bit movie as a stack, 32-bit, an RGB image
 * made from the 8-bit one, a rectangle selection), and compares every result pixel for pixel
 * with the output of {@code fastmedian background} (the CLI, -Dfastmedian.cli) on the same
 * image. Then each bad argument in an ImageJ of its own (an error ends the macro): an error
 * naming it, the image unchanged, no new image.
 */
class BackgroundMacroTest {
    private static final String GREY = "embryos_grey.tif";                // 8-bit 462x366
    private static final String MOVIE = "cancer_cell_migration_crop.tif";  // 16-bit, 48 slices
    private static final String ACTIN = "BPAE_actin.tif";                 // 32-bit 1100x680
    private static final String COMMAND = "Background Subtraction (fastmedian)...";
    // The selection of the "rectangle" case: x, y, width, height.
    private static final int[] RECTANGLE = {100, 50, 200, 150};

    /** Label, input, macro options. */
    private static final String[][] CASES = {
        {"u8 circle 20", GREY, "radius=20"},  // circle, exact, subtract, offset 0 by default
        {"u8 square 32 separable offset 10", GREY,
            "radius=32 window=square method=separable offset=10"},
        {"u8 circle 10 create", GREY, "radius=10 create"},
        {"u8 rectangle circle 20 offset 5", GREY, "radius=20 offset=5"},
        {"u16 stack square 15 offset -20.7", MOVIE, "radius=15 window=square offset=-20.7 stack"},
        {"u16 stack separable 40 create", MOVIE,
            "radius=40 window=square method=separable create stack"},
        {"f32 circle 12 offset -2.5", ACTIN, "radius=12 offset=-2.5"},
        {"f32 square 50 separable offset 100", ACTIN,
            "radius=50 window=square method=separable offset=100"},
        {"rgb circle 15 offset 30", "rgb", "radius=15 offset=30"},
    };

    /** Label, image, options, the start of the error message. */
    private static final String[][] ERRORS = {
        {"negative radius", GREY, "radius=-1", "window.radius must be finite and in 0..511, got -1"},
        {"separable circle", GREY, "radius=20 method=separable",
            "method separable needs window=square (a square of side 2 x radius + 1), not a circle"},
        {"square with a fractional radius", GREY, "radius=2.5 window=square",
            "radius must be a whole number of pixels in 0..511 for window=square"},
        {"unknown method", GREY, "radius=5 method=median",
            "method must be exact or separable, got 'median'"},
        {"offset out of range on a stack", MOVIE, "radius=5 offset=2e9 stack",
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
        m.append("prepareInputs(\"").append(path(data.resolve(GREY))).append("\", \"")
                .append(path(dir)).append("/\");\n");
        for (String[] c : CASES) {
            boolean rectangle = c[0].contains("rectangle");
            m.append("background(\"").append(c[0]).append("\", \"").append(path(input(c[1])))
                    .append("\", \"").append(c[2]).append("\", \"").append(path(result(c[0])))
                    .append("\", ");
            for (int i = 0; i < 4; i++)
                m.append(rectangle ? RECTANGLE[i] : 0).append(i < 3 ? ", " : ");\n");
        }
        try (InputStream in = BackgroundMacroTest.class.getResourceAsStream(
                "background_cases.ijm")) {
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
                .filter(l -> l.startsWith("Background Subtraction (fastmedian): ")
                        && l.contains(expected))
                .count();
        assertEquals(CASES.length, lines, "log lines with \"" + expected + "\"; ImageJ printed:\n"
                + output);
        assertTrue(output.contains("Background Subtraction (fastmedian): square 31x31, exact, "
                + "subtract offset -20.7, 48 slices on "), output);
        assertTrue(output.contains("Background Subtraction (fastmedian): circle radius 10, exact, "
                + "create background, 1 slice on "), output);
        if (!gpu) assertTrue(output.contains("no GPU used: " + FastMedian.cudaUnavailableReason()));
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
        assertEquals(original.getStackSize(), got.getStackSize(), "slices");
        assertEquals(original.getBitDepth(), got.getBitDepth(), "bit depth");
        Map<String, String> o = options(options);
        if (inputName.equals("rgb")) {
            String[] colours = {"red", "green", "blue"};
            for (int k = 0; k < 3; k++) {
                ImagePlus want = cli(input("rgb_" + colours[k]), o, colours[k]);
                assertSamePixels(want, channel(got, 16 - 8 * k), colours[k]);
            }
            return;
        }
        ImagePlus want = cli(input(inputName), o, "cli");
        if (label.contains("rectangle")) want = inside(want, original, RECTANGLE);
        assertSamePixels(want, got, "the CLI's output");
    }

    // `fastmedian background` on `in` with the options of the macro (window=square: --size
    // 2R+1, circle: --radius R; create: --output background).
    private static ImagePlus cli(Path in, Map<String, String> options, String name)
            throws Exception {
        Path cli = Paths.get(System.getProperty("fastmedian.cli", "fastmedian"));
        assertTrue(Files.isExecutable(cli), "no CLI at " + cli.toAbsolutePath()
                + "; set -Dfastmedian.cli=/path/to/fastmedian (build/native/src/cli/fastmedian)");
        Path out = dir.resolve(in.getFileName() + " " + name + " " + options + ".cli.tif");
        List<String> command = new ArrayList<>(List.of(cli.toString(), "background",
                in.toString(), out.toString()));
        String radius = options.get("radius");
        if (options.getOrDefault("window", "circle").equals("square"))
            command.addAll(List.of("--size", String.valueOf(2 * Integer.parseInt(radius) + 1)));
        else
            command.addAll(List.of("--radius", radius));
        command.addAll(List.of("--method", options.getOrDefault("method", "exact")));
        if (options.containsKey("create"))
            command.addAll(List.of("--output", "background"));
        else
            command.addAll(List.of("--offset", options.getOrDefault("offset", "0")));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the CLI did not finish: " + command);
        assertEquals(0, p.exitValue(), command + " printed:\n" + printed);
        return open(out);
    }

    private static Map<String, String> options(String options) {
        Map<String, String> o = new HashMap<>();
        for (String kv : options.split(" ")) {
            String[] parts = kv.split("=");
            o.put(parts[0], parts.length > 1 ? parts[1] : "");
        }
        return o;
    }

    // `filtered` inside the rectangle {x, y, w, h}, `original` outside (one slice).
    private static ImagePlus inside(ImagePlus filtered, ImagePlus original, int[] r) {
        Object f = filtered.getProcessor().getPixels();
        Object pixels = original.getProcessor().duplicate().getPixels();
        int width = original.getWidth();
        for (int y = r[1]; y < r[1] + r[3]; y++)
            System.arraycopy(f, y * width + r[0], pixels, y * width + r[0], r[2]);
        ImageStack stack = new ImageStack(width, original.getHeight());
        stack.addSlice("", pixels);
        return new ImagePlus("rectangle", stack);
    }

    // One channel of an RGB image as an 8-bit image.
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

    private static Path input(String name) {
        if (name.endsWith(".tif")) return data.resolve(name);
        return dir.resolve("in_" + name + ".tif");
    }

    private static Path result(String label) {
        return dir.resolve("out " + label + ".tif");
    }

    private static String path(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }
}
