package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several commands at once in Debian's ImageJ (batch mode, under Xvfb): ConcurrentCommandsProbe
 * runs Median, Gaussian Blur, 3D Median and Background Subtraction in threads of their own, each
 * on its own copy of a stack, and compares every copy with the same command run alone; then
 * runs a command on a stack another thread holds locked, which ImageJ must refuse.
 */
class ConcurrentCommandsMacroTest {
    /** Label, image, what the macro does to it first. */
    private static final String[][] CASES = {
        {"u8 beads", "Bead_Image1_crop.tif", ""},
        {"u16 movie", "cancer_cell_migration_crop.tif", ""},
        {"f32 beads", "Bead_Image1_crop.tif", "run(\"32-bit\");"},
    };

    private static String output;  // everything ImageJ printed

    @BeforeAll
    static void runImageJ(@TempDir Path dir) throws Exception {
        ImageJProcess.assumeAvailable();
        Path data = ImageJProcess.data();
        StringBuilder m = new StringBuilder("setBatchMode(true);\n");
        for (String[] c : CASES)
            m.append("open(\"").append(data.resolve(c[1]).toAbsolutePath().normalize())
                    .append("\");\n").append(c[2]).append("\ncall(\"")
                    .append(ConcurrentCommandsProbe.class.getName()).append(".runAtOnce\", \"")
                    .append(c[0]).append("\");\nclose(\"*\");\n");
        output = ImageJProcess.run(dir, m.toString());
    }

    @TestFactory
    List<DynamicTest> commandsAtOnceEqualEachAlone() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : CASES)
            tests.add(DynamicTest.dynamicTest(c[0], () -> assertPassed(c[0])));
        return tests;
    }

    @TestFactory
    List<DynamicTest> aLockedImageIsRefusedAndUnchanged() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : CASES)
            tests.add(DynamicTest.dynamicTest(c[0], () -> assertPassed(c[0] + ", locked")));
        return tests;
    }

    // Every run logs its line: per case each command alone and in its threads, and the Median
    // once unlocked (the run refused while locked logs nothing).
    @Test
    void everyRunLogsOnce() {
        long median = output.lines().filter(l -> l.startsWith("Median (fastmedian): radius 2, "))
                .count();
        int perCommand = 1 + ConcurrentCommandsProbe.THREADS
                / ConcurrentCommandsProbe.COMMANDS.length;
        assertEquals(CASES.length * (perCommand + 1), median, "Median's log lines; ImageJ "
                + "printed:\n" + output);
        long all = output.lines().filter(l -> l.matches("[^:]* \\(fastmedian\\): .* in [0-9.]+ "
                + "ms.*")).count();
        assertEquals(CASES.length * (perCommand * ConcurrentCommandsProbe.COMMANDS.length + 1),
                all, "log lines; ImageJ printed:\n" + output);
    }

    private static void assertPassed(String label) {
        assertTrue(output.lines().anyMatch(l -> l.equals("PASS " + label)),
                "no \"PASS " + label + "\"; ImageJ printed:\n" + output);
    }
}
