package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.process.ImageProcessor;
import java.awt.Rectangle;
import java.util.Locale;
import org.fastmedian.Backend;
import org.fastmedian.ConvolveOptions;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.RunInfo;

/**
 * What the convolution commands (Convolve, Gaussian Blur) share: each slice convolved with the
 * options their dialog made, in place as ImageJ's own filters (Edit &gt; Undo for a single image,
 * "Process all N slices?" or {@code stack} for a stack, a selection limiting the change to
 * itself), 8, 16 and 32-bit images and RGB images channel by channel; the image's edges
 * replicated (ImageJ's edge handling); an error reported once, changing nothing; one log line
 * per run with backend, device and time.
 */
abstract class ConvolutionFilter implements ExtendedPlugInFilter {
    final int flags = DOES_8G | DOES_16 | DOES_32 | DOES_RGB | SUPPORTS_MASKING
            | FINAL_PROCESSING;
    /** Set by the subclass's showDialog. */
    ConvolveOptions options;
    private RunInfo lastRun;
    private int slices;
    private long nanos;
    private boolean failed;

    /** The dialog's and the error messages' title. */
    abstract String title();

    /** What ran, for the log line: "3x3 kernel, normalized", "sigma 2 (17x17 separable)". */
    abstract String describe();

    @Override
    public int setup(String arg, ImagePlus imp) {
        if (arg.equals("final")) {  // called once after the last slice (FINAL_PROCESSING)
            if (!failed && lastRun != null) log();
            return DONE;
        }
        return flags;
    }

    @Override
    public void setNPasses(int nPasses) {}  // ImageJ's runner shows the progress through a stack

    /**
     * Filters one slice into new arrays and copies the selected rectangle back, so that a
     * failure writes nothing. Bad arguments and a missing library fail on the first slice, so the
     * image is then unchanged; later slices are skipped after an error, which is reported once.
     */
    @Override
    public void run(ImageProcessor ip) {
        if (failed) return;
        int width = ip.getWidth(), height = ip.getHeight();
        Object pixels = ip.getPixels();
        long start = System.nanoTime();
        Object filtered;
        try {
            SliceFilter.Filtered f = filter(pixels, width, height, options);
            filtered = f.pixels;
            lastRun = f.ran;
        } catch (FastMedianException e) {
            failed = true;
            IJ.error(title(), e.getMessage());
            return;
        } catch (OutOfMemoryError e) {
            failed = true;
            IJ.outOfMemory(title());
            return;
        }
        nanos += System.nanoTime() - start;
        slices++;
        // Only the selection's bounding rectangle changes; ImageJ restores the rest of a
        // non-rectangular selection (SUPPORTS_MASKING).
        Rectangle r = ip.getRoi();
        for (int y = r.y; y < r.y + r.height; y++)
            System.arraycopy(filtered, y * width + r.x, pixels, y * width + r.x, r.width);
        if (pixels instanceof float[]) ip.resetMinAndMax();
    }

    /** The convolution of one slice in a new array of its type (RGB channel by channel). */
    static SliceFilter.Filtered filter(Object pixels, int width, int height, ConvolveOptions options) {
        return SliceFilter.filter(pixels, width * height, new SliceFilter.Calls() {
            @Override
            public RunInfo run(byte[] in, byte[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(short[] in, short[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(float[] in, float[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }
        });
    }

    private void log() {
        String line = String.format(Locale.ROOT, "%s: %s, %d slice%s on %s in %.1f ms", title(),
                describe(), slices, slices == 1 ? "" : "s", lastRun, nanos / 1e6);
        if (lastRun.backend() == Backend.CPU)
            line += "; no GPU used: " + FastMedian.cudaUnavailableReason();
        IJ.log(line);
    }

    // As a macro prints numbers: 3, 2.5, -20.7.
    static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : String.valueOf(v);
    }
}
