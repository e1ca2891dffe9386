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
            Filtered f = filter(pixels, width, height, options);
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

    /** One slice's new pixels and what ran (the last call). */
    static final class Filtered {
        final Object pixels;
        final RunInfo ran;

        Filtered(Object pixels, RunInfo ran) {
            this.pixels = pixels;
            this.ran = ran;
        }
    }

    /**
     * The convolution of one slice ({@code byte[]}, {@code short[]}, {@code float[]}, or RGB
     * {@code int[]} channel by channel) in a new array of the same type.
     */
    static Filtered filter(Object pixels, int width, int height, ConvolveOptions options) {
        int n = width * height;
        if (pixels instanceof byte[]) {
            byte[] out = new byte[n];
            return new Filtered(out,
                    FastMedian.convolve((byte[]) pixels, out, width, height, 1, options));
        }
        if (pixels instanceof short[]) {
            short[] out = new short[n];
            return new Filtered(out,
                    FastMedian.convolve((short[]) pixels, out, width, height, 1, options));
        }
        if (pixels instanceof float[]) {
            float[] out = new float[n];
            return new Filtered(out,
                    FastMedian.convolve((float[]) pixels, out, width, height, 1, options));
        }
        // RGB: red, green and blue each as an 8-bit image.
        int[] rgb = (int[]) pixels;
        byte[][] in = new byte[3][n];
        byte[][] out = new byte[3][n];
        for (int i = 0; i < n; i++) {
            in[0][i] = (byte) (rgb[i] >> 16);
            in[1][i] = (byte) (rgb[i] >> 8);
            in[2][i] = (byte) rgb[i];
        }
        RunInfo ran = null;
        for (int k = 0; k < 3; k++)
            ran = FastMedian.convolve(in[k], out[k], width, height, 1, options);
        int[] result = new int[n];
        for (int i = 0; i < n; i++)
            result[i] = 0xff000000 | (out[0][i] & 0xff) << 16 | (out[1][i] & 0xff) << 8
                    | (out[2][i] & 0xff);
        return new Filtered(result, ran);
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
