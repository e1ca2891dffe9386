package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.gui.GenericDialog;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.plugin.filter.PlugInFilterRunner;
import ij.process.ImageProcessor;
import java.awt.Rectangle;
import java.util.Arrays;
import java.util.Locale;
import org.fastmedian.Backend;
import org.fastmedian.BackgroundMethod;
import org.fastmedian.BackgroundOptions;
import org.fastmedian.BackgroundOutput;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.RunInfo;

/**
 * Plugins &gt; fastmedian &gt; Background Subtraction (fastmedian)...: removes uneven
 * illumination or autofluorescence, as ImageJ's Process &gt; Subtract Background... does, with
 * a large-window median as the background instead of a rolling ball; on the first CUDA device
 * when there is one, else on the CPU; the same bits as {@code fastmedian background} on the
 * command line. Macro keys: {@code radius=R window=circle|square method=exact|separable
 * offset=V [create] [stack]}.
 *
 * <p>The window is ImageJ's circle of radius R (Process &gt; Filters &gt; Median's mask), or the
 * square of side 2R + 1 (R a whole number; the CLI's {@code --size 2R+1}). Method exact is the
 * median over the window; separable (squares only) an approximate, faster median: a median of
 * 2R + 1 pixels along y, then along x. The image's edges are replicated (ImageJ's edge
 * handling). Without {@code create}, each pixel becomes pixel - background + offset (the offset
 * rounded and the result clamped for 8 and 16-bit images); with {@code create} ("Create
 * background", as in Subtract Background...) the background itself, and the offset is unused.
 *
 * <p>As ImageJ's own filters: the image is changed in place (Edit &gt; Undo restores a single
 * image), a stack is filtered slice by slice after "Process all N slices?" ({@code stack} in a
 * macro), a selection limits the change to itself. 8, 16 and 32-bit images, and RGB images
 * channel by channel. Float NaN counts as larger than +Inf, as in the CLI. An error (reported
 * with the parameter at fault) changes nothing. Logs one line per run: backend, device, time.
 */
public class BackgroundSubtractionCommand implements ExtendedPlugInFilter {
    private static final String TITLE = "Background Subtraction (fastmedian)";
    private static final String[] WINDOWS = {"circle", "square"};
    private static final String[] METHODS = {"exact", "separable"};

    // The dialog's defaults (Subtract Background's radius of 50), kept between interactive runs.
    private static double lastRadius = 50;
    private static String lastWindow = WINDOWS[0];
    private static String lastMethod = METHODS[0];
    private static double lastOffset = 0;
    private static boolean lastCreate = false;

    private final int flags = DOES_8G | DOES_16 | DOES_32 | DOES_RGB | SUPPORTS_MASKING
            | FINAL_PROCESSING;
    private BackgroundOptions options;
    private double radius;
    private RunInfo lastRun;
    private int slices;
    private long nanos;
    private boolean failed;

    @Override
    public int setup(String arg, ImagePlus imp) {
        if (arg.equals("final")) {  // called once after the last slice (FINAL_PROCESSING)
            if (!failed && lastRun != null) log();
            return DONE;
        }
        return flags;
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        GenericDialog gd = new GenericDialog(command);
        gd.addNumericField("Radius", lastRadius, 1, 6, "pixels");
        gd.addChoice("Window", WINDOWS, lastWindow);
        gd.addChoice("Method", METHODS, lastMethod);
        gd.addNumericField("Offset", lastOffset, 1, 8, "(added to image - background)");
        gd.addCheckbox("Create background (don't subtract)", lastCreate);
        gd.addMessage("Square: side 2 x radius + 1. Separable: squares only.");
        gd.showDialog();
        if (gd.wasCanceled()) return DONE;
        radius = gd.getNextNumber();
        String window = gd.getNextChoice();
        String method = gd.getNextChoice();
        double offset = gd.getNextNumber();
        boolean create = gd.getNextBoolean();
        if (gd.invalidNumber()) {
            IJ.error(TITLE, "Radius and offset must be numbers.");
            return DONE;
        }
        options = options(radius, window, method, offset, create);
        if (options == null) return DONE;
        if (Macro.getOptions() == null) {
            lastRadius = radius;
            lastWindow = window;
            lastMethod = method;
            lastOffset = offset;
            lastCreate = create;
        }
        return IJ.setupDialog(imp, flags);  // adds DOES_STACKS for "stack" in a macro, or asks
    }

    /**
     * The options the dialog's values mean, or null after reporting what is wrong with them.
     * The radius's range and the offset are checked by the library, whose messages state them.
     */
    static BackgroundOptions options(double radius, String window, String method, double offset,
            boolean create) {
        // A macro's choice values are not checked by ImageJ.
        if (!Arrays.asList(WINDOWS).contains(window)) {
            IJ.error(TITLE, "window must be circle or square, got '" + window + "'");
            return null;
        }
        if (!Arrays.asList(METHODS).contains(method)) {
            IJ.error(TITLE, "method must be exact or separable, got '" + method + "'");
            return null;
        }
        boolean square = window.equals("square");
        if (method.equals("separable") && !square) {
            IJ.error(TITLE, "method separable needs window=square (a square of side "
                    + "2 x radius + 1), not a circle");
            return null;
        }
        BackgroundOptions o;
        if (square) {
            if (radius != Math.rint(radius) || radius < 0 || radius > 511) {
                IJ.error(TITLE, "radius must be a whole number of pixels in 0..511 for "
                        + "window=square (a square of side 2 x radius + 1), got "
                        + number(radius));
                return null;
            }
            o = BackgroundOptions.square(2 * (int) radius + 1);
        } else {
            o = BackgroundOptions.circle(radius);
        }
        o.method(method.equals("separable") ? BackgroundMethod.SEPARABLE : BackgroundMethod.EXACT);
        if (create) o.output(BackgroundOutput.BACKGROUND);
        else o.offset(offset);
        return o;
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
            IJ.error(TITLE, e.getMessage());
            return;
        } catch (OutOfMemoryError e) {
            failed = true;
            IJ.outOfMemory(TITLE);
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

    /** The background output of one slice in a new array of its type (RGB channel by channel). */
    static SliceFilter.Filtered filter(Object pixels, int width, int height,
            BackgroundOptions options) {
        return SliceFilter.filter(pixels, width * height, new SliceFilter.Calls() {
            @Override
            public RunInfo run(byte[] in, byte[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(short[] in, short[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(float[] in, float[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }
        });
    }

    private void log() {
        boolean subtract = options.output() == BackgroundOutput.SUBTRACT;
        String window = options.isCircle() ? "circle radius " + number(radius)
                : "square " + options.size() + "x" + options.size();
        String line = String.format(Locale.ROOT, "%s: %s, %s, %s, %d slice%s on %s in %.1f ms",
                TITLE, window, options.method(),
                subtract ? "subtract offset " + number(options.offset()) : "create background",
                slices, slices == 1 ? "" : "s", lastRun, nanos / 1e6);
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
