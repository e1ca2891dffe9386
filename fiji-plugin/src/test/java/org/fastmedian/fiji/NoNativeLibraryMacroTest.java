package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ImageJ whose fastmedian native library cannot be loaded (the override names a file that is
 * not there): the command reports it in an error message naming the cause, leaves the image
 * unchanged, and ImageJ carries on to a normal exit (ImageJProcess checks its exit status).
 */
class NoNativeLibraryMacroTest {
    @Test
    void aMissingLibraryIsAnErrorAndChangesNothing(@TempDir Path dir) throws Exception {
        ImageJProcess.assumeAvailable();
        String label = "no native library";
        String macro = "setBatchMode(true);\n"
                + "open(\"" + ImageJProcess.data().resolve("embryos_grey.tif") + "\");\n"
                + "call(\"" + MacroErrorProbe.class.getName() + ".expectError\", \"" + label
                + "\", \"Median (fastmedian)...\", \"radius=2\");\n";
        String output = ImageJProcess.run(dir, macro,
                dir.resolve("missing/libfastmedian_jni.so").toString());
        assertTrue(output.lines().anyMatch(l -> l.startsWith("PASS " + label + ": ")
                        && l.contains("cannot load the native library")),
                "no PASS line naming the missing library; ImageJ printed:\n" + output);
    }
}
