package org.fastmedian.fiji;

import ij.CompositeImage;
import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.Macro;
import ij.WindowManager;
import ij.gui.GenericDialog;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.plugin.filter.PlugInFilterRunner;
import ij.process.ImageProcessor;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.RunInfo;
import org.fastmedian.TemporalMode;
import org.fastmedian.TemporalOptions;

/**
 * Plugins &gt; fastmedian &gt; Temporal Median (fastmedian)...: for every pixel, the median of that
 * pixel over a window of N frames (the background Fiji's FTM2 removes), on the first CUDA device
 * when there is one, else on the CPU; the same bits as {@code fastmedian temporal} on the command
 * line. Macro keys: {@code window=N mode=median|subtract offset=V}.
 *
 * <p>Frames: the image's time points, for each channel and slice of a hyperstack; an image
 * without a time axis (a plain stack, as a movie opened from a TIFF often is) has its slices
 * taken as the frames, for each channel. Output frame t uses the N frames from t - N/2, moved
 * inward at the first and last frames; mode subtract writes frame - median + offset (the offset
 * rounded and the result clamped for 8 and 16-bit images). 8, 16 and 32-bit images, and RGB
 * images channel by channel. Float NaN counts as larger than +Inf, as in the CLI. Without a
 * window key a macro gets the dialog's default: 50 frames (FTM2's), or all frames when fewer.
 *
 * <p>It creates a new image and leaves the original unchanged (so an error, reported with the
 * parameter at fault, changes nothing); Esc between library calls (bands of pixels) stops it
 * with no image made, and the progress bar counts the bands. A selection is ignored: whole
 * frames are filtered. Logs one line per run: backend, device and time.
 */
public class TemporalMedianCommand implements ExtendedPlugInFilter {
    private static final String TITLE = "Temporal Median (fastmedian)";
    private static final String[] MODES = {"median", "subtract"};
    /** Frames x pixels moved to the library per call: bands of pixels bound the extra memory. */
    static final int BAND_ELEMENTS = 1 << 25;

    // The dialog's defaults (FTM2's window of 50), kept between interactive runs.
    private static int lastWindow = 50;
    private static String lastMode = MODES[0];
    private static double lastOffset = 0;

    // No DOES_STACKS: run() is called once and filters the whole image. NO_CHANGES: the
    // original is never written.
    private final int flags = DOES_8G | DOES_16 | DOES_32 | DOES_RGB | NO_CHANGES | NO_UNDO;
    private ImagePlus imp;
    private TemporalOptions options;

    @Override
    public int setup(String arg, ImagePlus imp) {
        this.imp = imp;
        return flags;
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        Frames frames = Frames.of(imp);
        GenericDialog gd = new GenericDialog(command);
        gd.addNumericField("Window", Math.min(lastWindow, frames.count), 0, 6, "frames");
        gd.addChoice("Mode", MODES, lastMode);
        gd.addNumericField("Offset", lastOffset, 1, 8, "(subtract)");
        gd.addMessage("Frames: " + frames.describe());
        gd.showDialog();
        if (gd.wasCanceled()) return DONE;
        double window = gd.getNextNumber();
        String mode = gd.getNextChoice();
        double offset = gd.getNextNumber();
        if (gd.invalidNumber()) {
            IJ.error(TITLE, "Window and offset must be numbers.");
            return DONE;
        }
        if (window != Math.rint(window) || window < 1 || window > frames.count) {
            IJ.error(TITLE, String.format(Locale.ROOT,
                    "window must be a whole number of frames in 1..%d (%s), got %s",
                    frames.count, frames.axis(), number(window)));
            return DONE;
        }
        if (!Arrays.asList(MODES).contains(mode)) {  // a macro's value is not checked by ImageJ
            IJ.error(TITLE, "mode must be median or subtract, got '" + mode + "'");
            return DONE;
        }
        // The offset's range is checked by the library, whose message states it.
        options = TemporalOptions.of((int) window)
                .mode(mode.equals("subtract") ? TemporalMode.SUBTRACT : TemporalMode.MEDIAN)
                .offset(offset);
        if (Macro.getOptions() == null) {
            lastWindow = (int) window;
            lastMode = mode;
            lastOffset = offset;
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
            result = filter(imp, options, BAND_ELEMENTS, IJ::escapePressed);
            IJ.showProgress(1.0);
        } catch (FastMedianException e) {
            IJ.error(TITLE, e.getMessage());
            return;
        } catch (OutOfMemoryError e) {
            IJ.outOfMemory(TITLE);
            return;
        }
        if (result == null) {
            IJ.log(TITLE + ": aborted (Esc); no image was made");
            return;
        }
        long nanos = System.nanoTime() - start;
        result.image.show();
        boolean subtract = options.mode() == TemporalMode.SUBTRACT;
        String line = String.format(Locale.ROOT, "%s: window %d, %s%s, %s x %d series on %s in "
                + "%.1f ms -> %s", TITLE, options.window(), options.mode(),
                subtract ? " offset " + number(options.offset()) : "", result.frames.describe(),
                result.frames.series, result.ran, nanos / 1e6, result.image.getTitle());
        if (result.ran.backend() == Backend.CPU)
            line += "; no GPU used: " + FastMedian.cudaUnavailableReason();
        IJ.log(line);
    }

    /** The new image, what ran (the last call) and the frames it used. */
    static final class Filtered {
        final ImagePlus image;
        final RunInfo ran;
        final Frames frames;

        Filtered(ImagePlus image, RunInfo ran, Frames frames) {
            this.image = image;
            this.ran = ran;
            this.frames = frames;
        }
    }

    /**
     * Which stack slices are the frames: the time points for each channel and slice, or, with no
     * time axis, the slices for each channel.
     */
    static final class Frames {
        final int count;      // frames in each series
        final int series;     // independent series (channels x slices, or channels)
        final boolean time;   // the time axis (else the slices)
        private final ImagePlus imp;

        private Frames(ImagePlus imp) {
            this.imp = imp;
            time = imp.getNFrames() > 1;
            count = time ? imp.getNFrames() : imp.getNSlices();
            series = imp.getNChannels() * (time ? imp.getNSlices() : 1);
        }

        static Frames of(ImagePlus imp) {
            return new Frames(imp);
        }

        /** The stack index (1-based) of frame t (0-based) of series s. */
        int stackIndex(int s, int t) {
            int channels = imp.getNChannels();
            int c = s % channels + 1;
            return time ? imp.getStackIndex(c, s / channels + 1, t + 1)
                        : imp.getStackIndex(c, t + 1, 1);
        }

        /** What the frames are, for messages: "the time points", "the slices", "one image". */
        String axis() {
            return time ? "the time points" : count > 1 ? "the slices" : "one image";
        }

        String describe() {
            return count + (count == 1 ? " frame" : " frames") + " (" + axis() + ")";
        }
    }

    /**
     * Filters every series of frames of {@code imp} into a new image of the same type, size and
     * dimensions, in bands of at most {@code bandElements} frames x pixels per library call (at
     * least one pixel). RGB images are filtered channel by channel.
     */
    static Filtered filter(ImagePlus imp, TemporalOptions options, int bandElements) {
        return filter(imp, options, bandElements, () -> false);
    }

    /**
     * As filter(imp, options, bandElements), showing the progress, and asking {@code stop}
     * (Esc) before each library call after the first: null when it says to stop.
     */
    static Filtered filter(ImagePlus imp, TemporalOptions options, int bandElements,
            BooleanSupplier stop) {
        Frames frames = Frames.of(imp);
        ImageStack in = imp.getStack();
        int width = in.getWidth(), height = in.getHeight(), pixels = width * height;
        int slices = in.getSize();
        Object[] out = new Object[slices];
        for (int i = 0; i < slices; i++) out[i] = newPixels(in.getPixels(i + 1), pixels);
        int band = (int) Math.max(1, Math.min(pixels, (long) bandElements / frames.count));
        RunInfo ran = null;
        Object[] inFrames = new Object[frames.count];
        Object[] outFrames = new Object[frames.count];
        for (int s = 0; s < frames.series; s++) {
            for (int t = 0; t < frames.count; t++) {
                int index = frames.stackIndex(s, t);
                inFrames[t] = in.getPixels(index);
                outFrames[t] = out[index - 1];
            }
            for (int p = 0; p < pixels; p += band) {
                if (ran != null && stop.getAsBoolean()) return null;
                IJ.showProgress(s * pixels + p, frames.series * pixels);
                ran = filterBand(inFrames, outFrames, p, Math.min(band, pixels - p), options);
            }
        }
        ImageStack stack = new ImageStack(width, height, in.getColorModel());
        for (int i = 0; i < slices; i++) stack.addSlice(in.getSliceLabel(i + 1), out[i]);
        return new Filtered(newImage(imp, stack, options), ran, frames);
    }

    private static Object newPixels(Object like, int pixels) {
        if (like instanceof byte[]) return new byte[pixels];
        if (like instanceof short[]) return new short[pixels];
        if (like instanceof float[]) return new float[pixels];
        return new int[pixels];
    }

    // Pixels [p, p + n) of every frame, gathered frame after frame, filtered and scattered.
    private static RunInfo filterBand(Object[] in, Object[] out, int p, int n,
            TemporalOptions options) {
        int frames = in.length;
        if (in[0] instanceof byte[]) {
            byte[] src = new byte[n * frames], dst = new byte[n * frames];
            for (int t = 0; t < frames; t++) System.arraycopy(in[t], p, src, t * n, n);
            RunInfo ran = FastMedian.temporalMedian(src, dst, n, 1, frames, options);
            for (int t = 0; t < frames; t++) System.arraycopy(dst, t * n, out[t], p, n);
            return ran;
        }
        if (in[0] instanceof short[]) {
            short[] src = new short[n * frames], dst = new short[n * frames];
            for (int t = 0; t < frames; t++) System.arraycopy(in[t], p, src, t * n, n);
            RunInfo ran = FastMedian.temporalMedian(src, dst, n, 1, frames, options);
            for (int t = 0; t < frames; t++) System.arraycopy(dst, t * n, out[t], p, n);
            return ran;
        }
        if (in[0] instanceof float[]) {
            float[] src = new float[n * frames], dst = new float[n * frames];
            for (int t = 0; t < frames; t++) System.arraycopy(in[t], p, src, t * n, n);
            RunInfo ran = FastMedian.temporalMedian(src, dst, n, 1, frames, options);
            for (int t = 0; t < frames; t++) System.arraycopy(dst, t * n, out[t], p, n);
            return ran;
        }
        // RGB: each of red, green and blue as an 8-bit movie.
        byte[][] src = new byte[3][n * frames];
        byte[][] dst = new byte[3][n * frames];
        for (int t = 0; t < frames; t++) {
            int[] rgb = (int[]) in[t];
            for (int i = 0; i < n; i++) {
                int v = rgb[p + i];
                src[0][t * n + i] = (byte) (v >> 16);
                src[1][t * n + i] = (byte) (v >> 8);
                src[2][t * n + i] = (byte) v;
            }
        }
        RunInfo ran = null;
        for (int k = 0; k < 3; k++)
            ran = FastMedian.temporalMedian(src[k], dst[k], n, 1, frames, options);
        for (int t = 0; t < frames; t++) {
            int[] rgb = (int[]) out[t];
            for (int i = 0; i < n; i++)
                rgb[p + i] = 0xff000000 | (dst[0][t * n + i] & 0xff) << 16
                        | (dst[1][t * n + i] & 0xff) << 8 | (dst[2][t * n + i] & 0xff);
        }
        return ran;
    }

    // The result as a new image with the original's dimensions, calibration and colours.
    private static ImagePlus newImage(ImagePlus imp, ImageStack stack, TemporalOptions options) {
        boolean subtract = options.mode() == TemporalMode.SUBTRACT;
        String title = WindowManager.makeUniqueName(imp.getShortTitle()
                + (subtract ? " minus temporal median " : " temporal median ") + options.window());
        ImagePlus result = new ImagePlus(title, stack);
        result.setDimensions(imp.getNChannels(), imp.getNSlices(), imp.getNFrames());
        result.setCalibration(imp.getCalibration().copy());
        if (imp.isHyperStack()) result.setOpenAsHyperStack(true);
        if (imp.isComposite()) {
            CompositeImage composite = new CompositeImage(result, ((CompositeImage) imp).getMode());
            composite.copyLuts(imp);
            if (subtract) composite.resetDisplayRanges();
            return composite;
        }
        if (subtract || imp.getBitDepth() == 24) result.resetDisplayRange();
        else result.setDisplayRange(imp.getDisplayRangeMin(), imp.getDisplayRangeMax());
        return result;
    }

    // As a macro prints numbers: 3, 2.5, -20.7.
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : String.valueOf(v);
    }
}
