package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sizes whose product overflows 64 bits once wrapped (width 64, height 536903681, planes
 * 536838145: 64 * h * p wraps to 64) must be refused, not handed to the library as a view of
 * 1.8e19 pixels over 64-element arrays. Run in a forked JVM, since the failure this guards
 * against kills the JVM rather than failing a test.
 */
class SizeOverflowTest {
    static final int W = 64, H = 536903681, P = 536838145;

    @Test
    void overflowingSizesAreRefusedInAForkedJvm() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + "/bin/java");
        String library = System.getProperty(NativeLibrary.PROPERTY);
        if (library != null) command.add("-D" + NativeLibrary.PROPERTY + "=" + library);
        // A crash report goes to the temporary folder, not the working tree.
        command.add("-XX:ErrorFile=" + System.getProperty("java.io.tmpdir") + "/fastmedian-probe-%p.log");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Probe.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = child.waitFor(60, TimeUnit.SECONDS);
        if (!ended) child.destroyForcibly();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the probe JVM did not end: " + output);
        assertEquals(0, child.exitValue(), "the probe JVM failed:\n" + output);
        assertEquals(Probe.CALLS, output.split("refused: ", -1).length - 1, output);
    }

    /** The calls, each expected to throw invalid_argument naming the sizes; exit 0 if all do. */
    public static final class Probe {
        static final int CALLS = 6;

        public static void main(String[] args) {
            byte[] b = new byte[64], b2 = new byte[64];
            short[] s = new short[64], s2 = new short[64];
            float[] f = new float[64], f2 = new float[64];
            Runnable[] calls = {
                () -> FastMedian.median(b, b2, W, H, P, MedianOptions.square(3).backend(Backend.CPU)),
                () -> FastMedian.median(f, f2, W, H, P, MedianOptions.square(3)),
                () -> FastMedian.median3d(s, s2, W, H, P, Median3DOptions.box(3, 3, 3)),
                () -> FastMedian.temporalMedian(s, s2, W, H, P, TemporalOptions.of(3)),
                () -> FastMedian.background(b, b2, W, H, P, BackgroundOptions.square(3)),
                () -> FastMedian.convolve(f, f2, W, H, P, ConvolveOptions.gaussian(1.0)),
            };
            int refused = 0;
            for (Runnable call : calls) {
                try {
                    call.run();
                    System.out.println("accepted");
                } catch (FastMedianException e) {
                    boolean named = e.code().equals("invalid_argument")
                            && e.getMessage().contains("width*height*planes");
                    System.out.println((named ? "refused: " : "wrong error: ") + e);
                    if (named) refused++;
                }
            }
            System.exit(refused == CALLS ? 0 : 1);
        }
    }
}
