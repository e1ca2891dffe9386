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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastmedian.FastMedian;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs "Convolve (fastmedian)..." and "Gaussian Blur (fastmedian)..." from a macro in Debian's
 * ImageJ (batch mode, under Xvfb) on the shared images (8-bit, the 16-bit movie as a stack,
 * 32-bit, an RGB image made from the 8-bit one, a rectangle selection), and compares every result
 * pixel for pixel with the output of {@code fastmedian convolve} (the CLI, -Dfastmedian.cli) on
 * the same image: {@code --kernel} with the kernel rotated by 180 degrees (the command lays the
 * kernel over the image as ImageJ's Convolve does; the CLI convolves), {@code --normalize} when
 * the sum is not 0; {@code --gaussian SIGMA}. Asymmetric kernels against ImageJ's own Convolve
 * (within a grey level, as the rounding differs). Then each bad argument in an ImageJ of its own
 * (an error ends the macro): an error naming it, the image unchanged, no new image.
 */
class ConvolveMacroTest {
    private static final String GREY = "embryos_grey.tif";                // 8-bit 462x366
    private static final String MOVIE = "cancer_cell_migration_crop.tif";  // 16-bit, 48 slices
    private static final String ACTIN = "BPAE_actin.tif";                 // 32-bit 1100x680
    private static final String CONVOLVE = "Convolve (fastmedian)...";
    private static final String GAUSSIAN = "Gaussian Blur (fastmedian)...";
    // The selection of the "rectangle" case: x, y, width, height.
    private static final int[] RECTANGLE = {100, 50, 200, 150};
    private static final String ASYMMETRIC = "1 2 0.5 -1 3\n0 4 1.5 2 -2\n2.25 1 0 1 -0.5";

    /** Label, input, kernel (rows separated by newlines, or one line: a square), more keys. */
    private static final String[][] KERNELS = {
        {"u8 3x3 laplacian normalize ignored as the sum is 0", GREY, "-1 -1 -1\n-1 8 -1\n-1 -1 -1\n",
            "normalize"},
        {"u8 asymmetric 5x3 normalize", GREY, ASYMMETRIC, "normalize"},
        {"u8 square on one line", GREY, "1 2 1 2 4 2 1 2 0", "normalize"},
        {"u8 rectangle sobel", GREY, "1 0 -1\n2 0 -2\n1 0 -1", ""},
        {"u16 stack 3x5 normalize", MOVIE, "1 2 3\n0 1 0\n-1 2 1\n1 1 1\n0.5 0.5 0.5",
            "normalize stack"},
        {"f32 7x7", ACTIN, ramp(7), ""},
        {"rgb 3x3 normalize", "rgb", "0 1 2\n1 4 1\n0 1 0", "normalize"},
    };

    /** Label, input, macro options. */
    private static final String[][] GAUSSIANS = {
        {"u8 sigma 2", GREY, "sigma=2"},
        {"u8 old key radius 1.2", GREY, "radius=1.2"},
        {"u16 stack sigma 3.5", MOVIE, "sigma=3.5 stack"},
        {"f32 sigma 10", ACTIN, "sigma=10"},
        {"rgb sigma 1.5", "rgb", "sigma=1.5"},
    };

    /** ImageJ's own Convolve... beside ours: label, input, kernel, more keys. */
    private static final String[][] BESIDE_IMAGEJ = {
        {"u8 asymmetric normalize beside ImageJ", GREY, ASYMMETRIC, "normalize"},
        {"f32 asymmetric beside ImageJ", ACTIN, ASYMMETRIC, ""},
    };

    /** Label, image, command, options, the start of the error message. */
    private static final String[][] ERRORS = {
        {"even kernel", GREY, CONVOLVE, "text1=[1 1\n1 1\n]",
            "Kernel (text1) must have odd width and height, at most 63. This one is 2x2."},
        {"ragged rows", GREY, CONVOLVE, "text1=[1 1 1\n1 1\n1 1 1\n] normalize",
            "Kernel (text1): row 2 has 2 numbers, the first row 3."},
        {"sigma out of range on a stack", MOVIE, GAUSSIAN, "sigma=200 stack",
            "sigma must be a number above 0 and at most 127, got 200"},
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
        for (String[] c : KERNELS)
            call(m, c[0], CONVOLVE, c[1], kernelOptions(c[2], c[3]));
        for (String[] c : GAUSSIANS)
            call(m, c[0], GAUSSIAN, c[1], c[2]);
        for (String[] c : BESIDE_IMAGEJ) {
            call(m, c[0], CONVOLVE, c[1], kernelOptions(c[2], c[3]));
            call(m, c[0] + " imagej", "Convolve...", c[1], kernelOptions(c[2], c[3]));
        }
        try (InputStream in = ConvolveMacroTest.class.getResourceAsStream(
                "convolve_cases.ijm")) {
            m.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        output = ImageJProcess.run(dir.resolve("run"), m.toString());
    }

    @TestFactory
    List<DynamicTest> convolveEqualsTheCliWithTheKernelRotated() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : KERNELS)
            tests.add(DynamicTest.dynamicTest(c[0], () -> {
                List<String> args = new ArrayList<>(List.of("--kernel",
                        writeMask(c[0], rotated(rows(c[2]))).toString()));
                if (c[3].contains("normalize") && sum(rows(c[2])) != 0) args.add("--normalize");
                checkCase(c[0], c[1], args);
            }));
        return tests;
    }

    @TestFactory
    List<DynamicTest> gaussianBlurEqualsTheCli() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : GAUSSIANS)
            tests.add(DynamicTest.dynamicTest(c[0], () -> {
                String sigma = c[2].split(" ")[0].split("=")[1];
                checkCase(c[0], c[1], List.of("--gaussian", sigma));
            }));
        return tests;
    }

    // Ours lays the kernel over the image as ImageJ's does: within one grey level of ImageJ's
    // own (rounding of the float sums), or 1e-5 of the largest sum of |weight x pixel| (32-bit).
    @TestFactory
    List<DynamicTest> convolveIsOrientedAsImageJsOwn() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : BESIDE_IMAGEJ)
            tests.add(DynamicTest.dynamicTest(c[0], () -> {
                assertRan(c[0]);
                assertRan(c[0] + " imagej");
                Object ours = open(result(c[0])).getProcessor().getPixels();
                Object imagej = open(result(c[0] + " imagej")).getProcessor().getPixels();
                double[][] k = rows(c[2]);
                double weights = 0, total = sum(k);
                for (double[] row : k)
                    for (double v : row) weights += Math.abs(v);
                if (c[3].contains("normalize")) weights /= Math.abs(total);
                if (ours instanceof byte[]) {
                    byte[] a = (byte[]) ours, b = (byte[]) imagej;
                    for (int i = 0; i < a.length; i++)
                        assertTrue(Math.abs((a[i] & 0xff) - (b[i] & 0xff)) <= 1,
                                "pixel " + i + ": ours " + (a[i] & 0xff) + ", ImageJ's "
                                        + (b[i] & 0xff));
                } else {
                    float[] a = (float[]) ours, b = (float[]) imagej;
                    float[] original = (float[]) open(input(c[1])).getProcessor().getPixels();
                    double max = 0;
                    for (float v : original) max = Math.max(max, Math.abs(v));
                    double bound = 1e-5 * weights * max;
                    for (int i = 0; i < a.length; i++)
                        assertTrue(Math.abs(a[i] - b[i]) <= bound, "pixel " + i + ": ours "
                                + a[i] + ", ImageJ's " + b[i] + ", bound " + bound);
                }
            }));
        return tests;
    }

    // One log line per run (backend, device, time); on a machine without a GPU it says why.
    @Test
    void eachRunLogsItsBackend() {
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        String expected = gpu ? " on cuda:0 (" : " on cpu (CPU) in ";
        long convolve = output.lines()
                .filter(l -> l.startsWith("Convolve (fastmedian): ") && l.contains(expected))
                .count();
        assertEquals(KERNELS.length + BESIDE_IMAGEJ.length, convolve,
                "Convolve log lines with \"" + expected + "\"; ImageJ printed:\n" + output);
        long gaussian = output.lines()
                .filter(l -> l.startsWith("Gaussian Blur (fastmedian): ") && l.contains(expected))
                .count();
        assertEquals(GAUSSIANS.length, gaussian,
                "Gaussian log lines with \"" + expected + "\"; ImageJ printed:\n" + output);
        for (String line : new String[] {
                "Convolve (fastmedian): 3x3 kernel, not normalized (sum 0), 1 slice on ",
                "Convolve (fastmedian): 3x5 kernel, normalized, 48 slices on ",
                "Convolve (fastmedian): 7x7 kernel, 1 slice on ",
                "Gaussian Blur (fastmedian): sigma 3.5 (29x29 separable), 48 slices on ",
                "Gaussian Blur (fastmedian): sigma 1.2 (11x11 separable), 1 slice on "})
            assertTrue(output.contains(line), "no \"" + line + "\"; ImageJ printed:\n" + output);
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
                        + e[0] + "\", \"" + e[2] + "\", \"" + literal(e[3]) + "\");\n";
                String printed = ImageJProcess.run(dir.resolve("error " + e[0]), macro);
                String expected = "PASS " + e[0] + ": " + e[4];
                assertTrue(printed.lines().anyMatch(l -> l.startsWith(expected)),
                        "no \"" + expected + "\"; ImageJ printed:\n" + printed);
            }));
        return tests;
    }

    private static void call(StringBuilder m, String label, String command, String input,
            String options) {
        boolean rectangle = label.contains("rectangle");
        m.append("filter(\"").append(label).append("\", \"").append(command).append("\", \"")
                .append(path(input(input))).append("\", \"").append(literal(options))
                .append("\", \"").append(path(result(label))).append("\", ");
        for (int i = 0; i < 4; i++)
            m.append(rectangle ? RECTANGLE[i] : 0).append(i < 3 ? ", " : ");\n");
    }

    // ImageJ's Convolver's keys: the kernel in text1=[...], then normalize, stack.
    private static String kernelOptions(String kernel, String keys) {
        return ("text1=[" + kernel + "] " + keys).trim();
    }

    // The options as a macro string literal: a newline written as \n.
    private static String literal(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static void assertRan(String label) {
        assertTrue(output.lines().anyMatch(l -> l.startsWith("RAN " + label + ": ")),
                "no \"RAN " + label + "\"; ImageJ printed:\n" + output);
    }

    private static void checkCase(String label, String inputName, List<String> cliArgs)
            throws Exception {
        assertRan(label);
        ImagePlus got = open(result(label));
        ImagePlus original = open(input(inputName));
        assertEquals(original.getStackSize(), got.getStackSize(), "slices");
        assertEquals(original.getBitDepth(), got.getBitDepth(), "bit depth");
        if (inputName.equals("rgb")) {
            String[] colours = {"red", "green", "blue"};
            for (int k = 0; k < 3; k++) {
                ImagePlus want = cli(input("rgb_" + colours[k]), cliArgs, label + " " + colours[k]);
                assertSamePixels(want, channel(got, 16 - 8 * k), colours[k]);
            }
            return;
        }
        ImagePlus want = cli(input(inputName), cliArgs, label);
        if (label.contains("rectangle")) want = inside(want, original, RECTANGLE);
        assertSamePixels(want, got, "the CLI's output");
    }

    // `fastmedian convolve in out ARGS` (border replicate, the default).
    private static ImagePlus cli(Path in, List<String> args, String name) throws Exception {
        Path cli = Paths.get(System.getProperty("fastmedian.cli", "fastmedian"));
        assertTrue(Files.isExecutable(cli), "no CLI at " + cli.toAbsolutePath()
                + "; set -Dfastmedian.cli=/path/to/fastmedian (build/native/src/cli/fastmedian)");
        Path out = dir.resolve(name + ".cli.tif");
        List<String> command = new ArrayList<>(List.of(cli.toString(), "convolve", in.toString(),
                out.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the CLI did not finish: " + command);
        assertEquals(0, p.exitValue(), command + " printed:\n" + printed);
        return open(out);
    }

    // The kernel's rows; text on one line is a square, row after row (the macro form).
    static double[][] rows(String kernel) {
        String[] lines = kernel.trim().split("\n");
        if (lines.length == 1) {
            String[] words = lines[0].trim().split("\\s+");
            int side = (int) Math.round(Math.sqrt(words.length));
            lines = new String[side];
            for (int y = 0; y < side; y++)
                lines[y] = String.join(" ", List.of(words).subList(y * side, (y + 1) * side));
        }
        double[][] rows = new double[lines.length][];
        for (int y = 0; y < lines.length; y++) {
            String[] words = lines[y].trim().split("\\s+");
            rows[y] = new double[words.length];
            for (int x = 0; x < words.length; x++) rows[y][x] = Double.parseDouble(words[x]);
        }
        return rows;
    }

    // The kernel turned by 180 degrees: the last row first, each row reversed.
    static double[][] rotated(double[][] rows) {
        int h = rows.length, w = rows[0].length;
        double[][] r = new double[h][w];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) r[y][x] = rows[h - 1 - y][w - 1 - x];
        return r;
    }

    private static double sum(double[][] rows) {
        double s = 0;
        for (double[] row : rows)
            for (double v : row) s += v;
        return s;
    }

    private static Path writeMask(String label, double[][] rows) throws Exception {
        StringBuilder text = new StringBuilder();
        for (double[] row : rows) {
            for (double v : row) text.append(v).append(' ');
            text.append('\n');
        }
        Path file = dir.resolve(label + ".mask.txt");
        Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        return file;
    }

    // An asymmetric n x n kernel of multiples of 1/8 (exact in float and in decimal).
    private static String ramp(int n) {
        StringBuilder s = new StringBuilder();
        for (int y = 0; y < n; y++) {
            for (int x = 0; x < n; x++) s.append(0.25 * (x + 1) - 0.125 * y).append(' ');
            s.append('\n');
        }
        return s.toString();
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
