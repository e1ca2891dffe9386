package org.fastmedian.fiji;

import static org.fastmedian.fiji.PixelAssert.assertSamePixels;
import static org.fastmedian.fiji.PixelAssert.bits;
import static org.fastmedian.fiji.PixelAssert.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
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
 * Runs "3D Median (fastmedian)..." from a macro in Debian's ImageJ (batch mode, under Xvfb) on
 * the bead stack (8-bit, 32-bit, RGB), the 16-bit movie as a volume and as a hyperstack, and
 * compares every result pixel for pixel with the output of {@code fastmedian median --3d} (the
 * CLI, -Dfastmedian.cli) on the same volumes, and with ImageJ's own Process &gt; Filters &gt;
 * Median 3D... away from the edges (where ImageJ shrinks its window and we replicate the edge).
 * Then each bad argument in an ImageJ of its own (an error ends the macro): an error naming it,
 * the image unchanged, no new image.
 */
class Median3DMacroTest {
    private static final String BEADS = "Bead_Image1_crop.tif";              // 8-bit, 41 slices
    private static final String MOVIE = "cancer_cell_migration_crop.tif";  // 16-bit, 48 slices
    private static final String COMMAND = "3D Median (fastmedian)...";

    /** Label, input, macro options (x = y: the CLI's --radius), compared with ImageJ's. */
    private static final String[][] CASES = {
        {"u8 x=2 y=2 z=2", BEADS, "x=2 y=2 z=2", "imagej"},
        {"u8 x=1 y=1 z=3", BEADS, "x=1 y=1 z=3", "imagej"},
        {"u16 x=1.5 y=1.5 z=1", MOVIE, "x=1.5 y=1.5 z=1", "imagej"},
        {"f32 x=2 y=2 z=1", "f32", "x=2 y=2 z=1", "imagej"},
        {"rgb x=1 y=1 z=2", "rgb", "x=1 y=1 z=2", "imagej"},
        // ImageJ's Median 3D refuses 5D hyperstacks.
        {"hyperstack czt x=1 y=1 z=1", "hyper_czt", "x=1 y=1 z=1", ""},
    };

    /** Label, image, options, the start of the error message. */
    private static final String[][] ERRORS = {
        {"negative x radius", BEADS, "x=-1 y=2 z=2",
            "window.radius_x must be finite and in 0..127, got -1"},
        {"z radius too large", MOVIE, "x=1 y=1 z=200",
            "window.radius_z must be finite and in 0..127, got 200"},
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
        m.append("prepareInputs(\"").append(path(data.resolve(BEADS))).append("\", \"")
                .append(path(data.resolve(MOVIE))).append("\", \"").append(path(dir))
                .append("/\");\n");
        for (String[] c : CASES)
            m.append("median3d(\"").append(c[0]).append("\", \"").append(path(input(c[1])))
                    .append("\", \"").append(c[2]).append("\", \"").append(path(result(c[0])))
                    .append("\", \"").append(c[3].isEmpty() ? "" : path(imagej(c[0])))
                    .append("\");\n");
        try (InputStream in = Median3DMacroTest.class.getResourceAsStream("median3d_cases.ijm")) {
            m.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        output = ImageJProcess.run(dir.resolve("run"), m.toString());
    }

    @TestFactory
    List<DynamicTest> equalsTheCli() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : CASES)
            tests.add(DynamicTest.dynamicTest(c[0], () -> checkCli(c[0], c[1], c[2])));
        return tests;
    }

    @TestFactory
    List<DynamicTest> equalsImageJAwayFromTheEdges() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : CASES)
            if (!c[3].isEmpty())
                tests.add(DynamicTest.dynamicTest(c[0], () -> checkImageJ(c[0], c[2])));
        return tests;
    }

    // One log line per run (backend, device, time); on a machine without a GPU it says why.
    @Test
    void eachRunLogsItsBackend() {
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        String expected = gpu ? " on cuda:0 (" : " on cpu (CPU) in ";
        long lines = output.lines()
                .filter(l -> l.startsWith("3D Median (fastmedian): ") && l.contains(expected))
                .count();
        assertEquals(CASES.length, lines, "log lines with \"" + expected + "\"; ImageJ printed:\n"
                + output);
        assertTrue(output.contains("3D Median (fastmedian): x=2 y=2 z=2, 1 volume of 41 slices "
                + "on "), output);
        assertTrue(output.contains("3D Median (fastmedian): x=1 y=1 z=1, 8 volumes of 6 slices "
                + "on "), output);
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

    private static void checkCli(String label, String inputName, String options)
            throws Exception {
        assertTrue(output.lines().anyMatch(l -> l.startsWith("RAN " + label + ": ")),
                "no \"RAN " + label + "\"; ImageJ printed:\n" + output);
        ImagePlus got = open(result(label));
        ImagePlus original = open(input(inputName));
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
        if (!original.isHyperStack()) {
            assertSamePixels(cli(input(inputName), o, "cli"), got, "the CLI's output");
            return;
        }
        // A hyperstack: the z-stack of each channel and time point through the CLI.
        for (int c = 1; c <= original.getNChannels(); c++)
            for (int t = 1; t <= original.getNFrames(); t++) {
                ImageStack in = new ImageStack(original.getWidth(), original.getHeight());
                ImageStack out = new ImageStack(original.getWidth(), original.getHeight());
                for (int z = 1; z <= original.getNSlices(); z++) {
                    int index = original.getStackIndex(c, z, t);
                    in.addSlice("", original.getStack().getPixels(index));
                    out.addSlice("", got.getStack().getPixels(index));
                }
                String volume = "channel " + c + ", time point " + t;
                Path volumeIn = dir.resolve(label + " " + volume + ".tif");
                assertTrue(new FileSaver(new ImagePlus("in", in))
                        .saveAsTiffStack(volumeIn.toString()));
                assertSamePixels(cli(volumeIn, o, volume), new ImagePlus("out", out), volume);
            }
    }

    // Voxels at least ceil(radius) from every edge along every axis equal ImageJ's Median 3D.
    private static void checkImageJ(String label, String options) throws Exception {
        ImagePlus got = open(result(label));
        ImagePlus want = open(imagej(label));
        Map<String, String> o = options(options);
        int rx = (int) Math.ceil(Double.parseDouble(o.get("x")));
        int ry = (int) Math.ceil(Double.parseDouble(o.get("y")));
        int rz = (int) Math.ceil(Double.parseDouble(o.get("z")));
        int width = got.getWidth(), height = got.getHeight(), depth = got.getStackSize();
        int compared = 0, edgeDifferences = 0;
        for (int z = 0; z < depth; z++) {
            Object w = want.getStack().getPixels(z + 1), g = got.getStack().getPixels(z + 1);
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    int j = y * width + x;
                    boolean inside = x >= rx && x < width - rx && y >= ry && y < height - ry
                            && z >= rz && z < depth - rz;
                    if (!inside) {
                        if (bits(w, j) != bits(g, j)) edgeDifferences++;
                        continue;
                    }
                    compared++;
                    assertEquals(bits(w, j), bits(g, j), "slice " + (z + 1) + " x=" + x
                            + " y=" + y + ": ImageJ's value, then ours");
                }
        }
        assertTrue(compared > 0, "no voxel away from the edges");
        // The edges are where the two differ by design; that they do shows the comparison
        // reads two different results.
        assertNotEquals(0, edgeDifferences, "no difference at the edges");
    }

    // `fastmedian median --3d` on `in` with the radii of the macro (x = y).
    private static ImagePlus cli(Path in, Map<String, String> options, String name)
            throws Exception {
        assertEquals(options.get("x"), options.get("y"), "the CLI takes x = y");
        Path cli = Paths.get(System.getProperty("fastmedian.cli", "fastmedian"));
        assertTrue(Files.isExecutable(cli), "no CLI at " + cli.toAbsolutePath()
                + "; set -Dfastmedian.cli=/path/to/fastmedian (build/native/src/cli/fastmedian)");
        Path out = dir.resolve(in.getFileName() + " " + name + " " + options + ".cli.tif");
        List<String> command = List.of(cli.toString(), "median", in.toString(), out.toString(),
                "--3d", "--radius", options.get("x"), "--zradius", options.get("z"));
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

    private static Path input(String name) {
        if (name.endsWith(".tif")) return data.resolve(name);
        return dir.resolve("in_" + name + ".tif");
    }

    private static Path result(String label) {
        return dir.resolve("out " + label + ".tif");
    }

    private static Path imagej(String label) {
        return dir.resolve("imagej " + label + ".tif");
    }

    private static String path(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }
}
