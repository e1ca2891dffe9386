package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.Macro;
import ij.gui.GenericDialog;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.plugin.filter.PlugInFilterRunner;
import ij.process.ImageProcessor;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.Median3DOptions;
import org.fastmedian.RunInfo;

/**
 * Plugins &gt; fastmedian &gt; 3D Median (fastmedian)...: ImageJ's Process &gt; Filters &gt;
 * Median 3D... (the same ellipsoid of x, y and z radii, the same macro keys {@code x=RX y=RY
 * z=RZ}) computed by fastmedian, on the first CUDA device when there is one, else on the CPU;
 * the same bits as {@code fastmedian median --3d --radius R --zradius RZ} (for x = y) on the
 * command line.
 *
 * <p>The one difference from ImageJ's: at the volume's edges ImageJ shrinks the window to the
 * voxels inside; here the volume is extended by replicating its edge voxels (scipy's "nearest"),
 * so results differ within a radius of the edges and are equal everywhere else. Float NaN counts
 * as larger than +Inf, as in the CLI.
 *
 * <p>The slices are the volume; a hyperstack's z-stack of each channel and time point is a
 * volume of its own. 8, 16 and 32-bit images, RGB images channel by channel. A selection is
 * ignored. The image is changed in place, without Undo, once every volume is filtered, so an
 * error (reported with the parameter at fault) or Esc between volumes changes nothing; the
 * progress bar counts volumes. Logs one line per run: backend, device and time.
 */
public class Median3DCommand implements ExtendedPlugInFilter {
    private static final String TITLE = "3D Median (fastmedian)";
    private static final String HELP = "ImageJ's 3D Median ellipsoid, radii 0..127 pixels.\n"
            + "Edges: the volume is extended by its edge voxels (replicated),\n"
            + "where ImageJ's Median 3D... shrinks the window: results differ\n"
            + "within a radius of the edges only.";

    // The dialog's defaults (ImageJ's), kept between interactive runs.
    private static double lastX = 2, lastY = 2, lastZ = 2;

    // No DOES_STACKS: run() is called once and filters every volume of the image.
    private final int flags = DOES_8G | DOES_16 | DOES_32 | DOES_RGB | NO_UNDO;
    private ImagePlus imp;
    private double x, y, z;

    @Override
    public int setup(String arg, ImagePlus imp) {
        this.imp = imp;
        return flags;
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        GenericDialog gd = new GenericDialog(command);
        gd.addNumericField("X radius:", lastX, 1);
        gd.addNumericField("Y radius:", lastY, 1);
        gd.addNumericField("Z radius:", lastZ, 1);
        gd.addMessage(HELP);
        gd.showDialog();
        if (gd.wasCanceled()) return DONE;
        x = gd.getNextNumber();
        y = gd.getNextNumber();
        z = gd.getNextNumber();
        if (gd.invalidNumber()) {
            IJ.error(TITLE, "The radii must be numbers.");
            return DONE;
        }
        // The ranges are checked by the library, whose message states them.
        if (Macro.getOptions() == null) {
            lastX = x;
            lastY = y;
            lastZ = z;
        }
        return flags;
    }

    @Override
    public void setNPasses(int nPasses) {}

    @Override
    public void run(ImageProcessor ip) {
        long start = System.nanoTime();
        Filtered result;
        try {
            IJ.resetEscape();
            result = filter(imp, Median3DOptions.ellipsoid(x, y, z), IJ::escapePressed);
            IJ.showProgress(1.0);
        } catch (FastMedianException | IllegalArgumentException e) {
            IJ.error(TITLE, e.getMessage());
            return;
        } catch (OutOfMemoryError e) {
            IJ.outOfMemory(TITLE);
            return;
        }
        if (result == null) {
            IJ.log(TITLE + ": aborted (Esc); the image is unchanged");
            return;
        }
        ImageStack stack = imp.getStack();
        for (int i = 0; i < result.pixels.length; i++)
            System.arraycopy(result.pixels[i], 0, stack.getPixels(i + 1), 0,
                    imp.getWidth() * imp.getHeight());
        long nanos = System.nanoTime() - start;
        int volumes = imp.getNChannels() * imp.getNFrames();
        String line = String.format(Locale.ROOT, "%s: x=%s y=%s z=%s, %d volume%s of %d slice%s on"
                + " %s in %.1f ms", TITLE, number(x), number(y), number(z), volumes,
                volumes == 1 ? "" : "s", imp.getNSlices(), imp.getNSlices() == 1 ? "" : "s",
                result.ran, nanos / 1e6);
        if (result.ran.backend() == Backend.CPU)
            line += "; no GPU used: " + FastMedian.cudaUnavailableReason();
        IJ.log(line);
    }

    /** Every slice's new pixels (by stack index - 1) and what ran (the last call). */
    static final class Filtered {
        final Object[] pixels;
        final RunInfo ran;

        Filtered(Object[] pixels, RunInfo ran) {
            this.pixels = pixels;
            this.ran = ran;
        }
    }

    /**
     * The 3D median of every volume of {@code imp} (the slices of each channel and time point)
     * into new arrays; {@code imp} is not changed. RGB images channel by channel.
     */
    static Filtered filter(ImagePlus imp, Median3DOptions options) {
        return filter(imp, options, () -> false);
    }

    /**
     * As filter(imp, options), showing the progress by volume, and asking {@code stop} (Esc)
     * before each volume after the first: null when it says to stop.
     */
    static Filtered filter(ImagePlus imp, Median3DOptions options, BooleanSupplier stop) {
        ImageStack in = imp.getStack();
        int width = in.getWidth(), height = in.getHeight(), n = width * height;
        int depth = imp.getNSlices();
        if ((long) n * depth > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException("a volume of " + width + " x " + height + " x "
                    + depth + " voxels is larger than one Java array holds");
        Object[] out = new Object[in.getSize()];
        RunInfo ran = null;
        // One array for a volume, slice after slice; SliceFilter's calls do the pixel types.
        Object volume = newPixels(in.getPixels(1), n * depth);
        int volumes = imp.getNChannels() * imp.getNFrames(), done = 0;
        for (int c = 1; c <= imp.getNChannels(); c++)
            for (int t = 1; t <= imp.getNFrames(); t++) {
                if (done > 0 && stop.getAsBoolean()) return null;
                IJ.showProgress(done++, volumes);
                int[] indexes = new int[depth];
                for (int zi = 0; zi < depth; zi++) indexes[zi] = imp.getStackIndex(c, zi + 1, t);
                for (int zi = 0; zi < depth; zi++)
                    System.arraycopy(in.getPixels(indexes[zi]), 0, volume, zi * n, n);
                SliceFilter.Filtered f = SliceFilter.filter(volume, n * depth,
                        new SliceFilter.Calls() {
                    @Override
                    public RunInfo run(byte[] src, byte[] dst) {
                        return FastMedian.median3d(src, dst, width, height, depth, options);
                    }

                    @Override
                    public RunInfo run(short[] src, short[] dst) {
                        return FastMedian.median3d(src, dst, width, height, depth, options);
                    }

                    @Override
                    public RunInfo run(float[] src, float[] dst) {
                        return FastMedian.median3d(src, dst, width, height, depth, options);
                    }
                });
                ran = f.ran;
                for (int zi = 0; zi < depth; zi++) {
                    Object slice = newPixels(volume, n);
                    System.arraycopy(f.pixels, zi * n, slice, 0, n);
                    out[indexes[zi] - 1] = slice;
                }
            }
        return new Filtered(out, ran);
    }

    private static Object newPixels(Object like, int length) {
        if (like instanceof byte[]) return new byte[length];
        if (like instanceof short[]) return new short[length];
        if (like instanceof float[]) return new float[length];
        return new int[length];
    }

    // As a macro prints numbers: 3, 2.5.
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : String.valueOf(v);
    }
}
