package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fastmedian.FastMedian;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the command inside Debian's ImageJ, as a user's macro would, and compares it pixel for
 * pixel with ImageJ's own Process &gt; Filters &gt; Median on the shared microscopy images, whole
 * and with selections (8, 16, 32-bit and RGB), then aborts a stack with Esc (EscapeProbe). ImageJ
 * runs once, under Xvfb (it needs a display to build its menus); each case is one test here.
 */
class ImageJMacroTest {
    private static final String[] IMAGES = {
        "embryos_grey.tif",                // 8-bit
        "cancer_cell_migration_crop.tif",  // 16-bit, 48 time points
        "BPAE_actin.tif",                  // 32-bit
        "hela-cells.tif",                  // 16-bit composite: a stack of 3 channels
    };
    private static final double[] RADII = {0.5, 1, 1.5, 2, 2.5, 3, 5, 7.5, 10};
    // Made RGB (Stack to RGB: its three channels as red, green and blue) and filtered whole.
    private static final String RGB_IMAGE = "hela-cells.tif";
    /**
     * With a selection: image, " RGB" for hela-cells made RGB (else ""), radius, shape, x, y,
     * width, height. Each type, a stack, a selection at an edge, and an oval (whose bounding
     * rectangle ImageJ filters, then restores outside the oval).
     */
    private static final String[][] SELECTIONS = {
        {"embryos_grey.tif", "", "2", "rectangle", "100", "50", "200", "150"},
        {"cancer_cell_migration_crop.tif", "", "1.5", "rectangle", "20", "30", "60", "50"},
        {"BPAE_actin.tif", "", "3", "rectangle", "0", "500", "300", "180"},
        {"hela-cells.tif", " RGB", "2.5", "rectangle", "400", "10", "150", "120"},
        {"embryos_grey.tif", "", "5", "oval", "50", "40", "180", "120"},
        {"hela-cells.tif", " RGB", "1", "oval", "100", "200", "90", "160"},
    };
    private static final String ESCAPE = "cancer_cell_migration_crop.tif";  // 48 slices
    private static final String BAD_RADIUS = "-1";

    private static String output;  // everything ImageJ printed

    @BeforeAll
    static void runImageJ(@TempDir Path dir) throws Exception {
        ImageJProcess.assumeAvailable();
        output = ImageJProcess.run(dir, macro(ImageJProcess.data()));
    }

    @TestFactory
    List<DynamicTest> fastmedianMatchesImageJ() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String image : IMAGES)
            for (double radius : RADII) {
                String label = image + " radius=" + radiusText(radius);
                tests.add(DynamicTest.dynamicTest(label, () -> assertPassed(label)));
            }
        for (double radius : RADII) {
            String label = RGB_IMAGE + " RGB radius=" + radiusText(radius);
            tests.add(DynamicTest.dynamicTest(label, () -> assertPassed(label)));
        }
        return tests;
    }

    // ImageJ's Median filters a selection alone: ours must give the same image.
    @TestFactory
    List<DynamicTest> withASelectionFastmedianMatchesImageJ() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : SELECTIONS) {
            String label = selectionLabel(c);
            tests.add(DynamicTest.dynamicTest(label, () -> assertPassed(label)));
        }
        return tests;
    }

    // Esc while a stack is filtered (pressed by EscapeProbe during the second slice) leaves the
    // stack unchanged and says so in the log; the same run without Esc changes it.
    @Test
    void escapeOnAStackLeavesItUnchanged() {
        assertPassed("escape at slice 2");
        assertPassed("no escape");
        String expected = "Median (fastmedian): aborted (Esc) after 2 of 48 slices; the image is "
                + "unchanged";
        assertTrue(output.lines().anyMatch(l -> l.equals(expected)),
                "no \"" + expected + "\"; ImageJ printed:\n" + output);
    }

    // In a macro, the command's IJ.error aborts the macro; the probe records the message.
    @Test
    void aBadRadiusIsAnErrorAndChangesNothing() {
        String expected = "PASS " + badRadiusLabel()
                + ": window.radius must be finite and in 0..511, got -1";
        assertTrue(output.lines().anyMatch(l -> l.equals(expected)),
                "no \"" + expected + "\"; ImageJ printed:\n" + output);
    }

    // One log line per run (backend, device, time); on a machine without a GPU it says why.
    @Test
    void eachRunLogsItsBackend() {
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        String expected = gpu ? " on cuda:0 (" : " on cpu (CPU) in ";
        long lines = output.lines()
                .filter(l -> l.startsWith("Median (fastmedian): radius ") && l.contains(expected))
                .count();
        // Every run (the images, the RGB image, the selections, the stack not aborted).
        assertEquals((IMAGES.length + 1) * RADII.length + SELECTIONS.length + 1, lines,
                "log lines with \"" + expected + "\"; ImageJ printed:\n" + output);
        if (!gpu) assertTrue(output.contains("no GPU used: " + FastMedian.cudaUnavailableReason()));
    }

    private static String selectionLabel(String[] c) {
        return c[0] + c[1] + " " + c[3] + " radius=" + c[2];
    }

    private static String badRadiusLabel() {
        return IMAGES[1] + " radius=" + BAD_RADIUS;
    }

    private static void assertPassed(String label) {
        assertTrue(output.lines().anyMatch(l -> l.equals("PASS " + label)),
                "no \"PASS " + label + "\"; ImageJ printed:\n" + output);
    }

    // The macro: a call per case, then the case functions.
    private static String macro(Path data) throws IOException {
        StringBuilder m = new StringBuilder("setBatchMode(true);\n");
        for (String image : IMAGES)
            for (double radius : RADII)
                m.append("compare(\"").append(path(data, image)).append("\", \"\", ")
                        .append(radiusText(radius)).append(");\n");
        for (double radius : RADII)
            m.append("compare(\"").append(path(data, RGB_IMAGE)).append("\", \" RGB\", ")
                    .append(radiusText(radius)).append(");\n");
        for (String[] c : SELECTIONS)
            m.append("compareSelection(\"").append(path(data, c[0])).append("\", \"")
                    .append(c[1]).append("\", ").append(c[2]).append(", \"").append(c[3])
                    .append("\", ").append(String.join(", ", Arrays.copyOfRange(c, 4, 8)))
                    .append(");\n");
        for (String[] c : new String[][] {{"escape at slice 2", "2"}, {"no escape", "0"}})
            m.append("open(\"").append(path(data, ESCAPE)).append("\");\n")
                    .append("call(\"").append(EscapeProbe.class.getName())
                    .append(".medianStack\", \"").append(c[0]).append("\", \"2\", \"")
                    .append(c[1]).append("\");\nclose(\"*\");\n");
        // Last: the probe ends the macro (see MacroErrorProbe).
        m.append("open(\"").append(path(data, IMAGES[1])).append("\");\n")
                .append("call(\"").append(MacroErrorProbe.class.getName())
                .append(".expectError\", \"").append(badRadiusLabel())
                .append("\", \"Median (fastmedian)...\", \"radius=").append(BAD_RADIUS)
                .append(" stack\");\n");
        try (InputStream in = ImageJMacroTest.class.getResourceAsStream("median_cases.ijm")) {
            m.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        return m.toString();
    }

    // As the macro prints numbers: 0.5, 1, 1.5 ...
    private static String radiusText(double radius) {
        return radius == Math.rint(radius) ? String.valueOf((long) radius) : String.valueOf(radius);
    }

    private static String path(Path data, String image) {
        return data.resolve(image).toAbsolutePath().normalize().toString();
    }
}
