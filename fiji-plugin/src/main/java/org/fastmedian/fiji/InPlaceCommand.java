package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.Macro;
import ij.gui.DialogListener;
import ij.gui.GenericDialog;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.plugin.filter.PlugInFilterRunner;
import ij.process.ImageProcessor;
import java.awt.AWTEvent;
import java.awt.Rectangle;
import java.util.Locale;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.RunInfo;

/**
 * What the in-place commands (Median, Background Subtraction, Convolve, Gaussian Blur) share,
 * done as ImageJ's own filters do it: a dialog whose fields are the macro keys, with Preview (the
 * current slice filtered; Cancel restores it); the image changed in place, with Edit &gt; Undo
 * for a single image; a stack filtered slice by slice after "Process all N slices?"
 * ({@code stack} in a macro) with a progress bar, Esc aborting; a selection limiting the change
 * to itself (its bounding rectangle, less what lies outside a non-rectangular selection); 8, 16
 * and 32-bit images, and RGB images channel by channel (SliceFilter). Every slice is filtered
 * before any is written, so an error or Esc leaves the image unchanged. One log line per run:
 * backend, device and time.
 */
abstract class InPlaceCommand implements ExtendedPlugInFilter, DialogListener {
    static final int FLAGS = DOES_8G | DOES_16 | DOES_32 | DOES_RGB;

    private ImagePlus imp;
    private String error;               // what is wrong with the dialog's values, or null
    private boolean stack;              // run() filters every slice
    private Thread caller;              // runs the command; previews run in a thread of their own

    /** The dialog's and the messages' title. */
    abstract String title();

    /** Adds the command's fields (the macro keys, in the order readFields reads them). */
    abstract void addFields(GenericDialog gd, ImagePlus imp);

    /** Reads the fields; throws IllegalArgumentException with the message to show. */
    abstract void readFields(GenericDialog gd);

    /** Keeps the values read as the next dialog's defaults (after an interactive run only). */
    abstract void remember();

    /** One slice ({@code pixels} of any type ImageJ has) filtered into a new array of its type. */
    abstract SliceFilter.Filtered filter(Object pixels, int width, int height);

    /** What ran, for the log line: "radius 2", "3x3 kernel, normalized". */
    abstract String describe();

    @Override
    public int setup(String arg, ImagePlus imp) {
        this.imp = imp;
        return FLAGS;
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        GenericDialog gd = new GenericDialog(command);
        addFields(gd, imp);
        gd.addPreviewCheckbox(pfr);
        // Reads the fields on every change, and once more after OK or a macro's values.
        gd.addDialogListener(this);
        caller = Thread.currentThread();
        gd.showDialog();
        if (gd.wasCanceled()) return DONE;
        if (error != null) {
            IJ.error(title(), error);
            return DONE;
        }
        if (Macro.getOptions() == null) remember();
        int flags = IJ.setupDialog(imp, FLAGS);  // adds DOES_STACKS for "stack" in a macro, or asks
        stack = (flags & DOES_STACKS) != 0;
        // run() then filters the stack itself, so that Esc can leave it unchanged; a stack has
        // no Undo, as with ImageJ's own filters.
        return stack ? flags & ~DOES_STACKS | NO_UNDO : flags;
    }

    /** Disables OK and Preview while a value is wrong, saying why in the status bar. */
    @Override
    public boolean dialogItemChanged(GenericDialog gd, AWTEvent e) {
        try {
            readFields(gd);
            error = null;
        } catch (IllegalArgumentException x) {
            error = x.getMessage();
            IJ.showStatus(error);
        }
        return error == null;
    }

    @Override
    public void setNPasses(int nPasses) {}  // run() shows the progress through a stack

    /**
     * Filters the slice {@code ip}, or every slice of the stack, into new arrays, then copies the
     * selection back (all of a stack's slices: the new arrays replace them). Bad arguments (whose
     * messages name them), a missing library and Esc stop it before anything is written.
     */
    @Override
    public void run(ImageProcessor ip) {
        boolean preview = Thread.currentThread() != caller;
        ImageStack images = imp.getStack();
        int n = stack ? images.getSize() : 1;
        int width = ip.getWidth(), height = ip.getHeight();
        Object[] filtered = new Object[n];
        RunInfo ran = null;
        long start = System.nanoTime();
        if (stack) IJ.resetEscape();
        for (int i = 0; i < n; i++) {
            if (stack) IJ.showProgress(i, n);
            try {
                SliceFilter.Filtered f = filter(stack ? images.getPixels(i + 1) : ip.getPixels(),
                        width, height);
                filtered[i] = f.pixels;
                ran = f.ran;
            } catch (FastMedianException e) {
                report(preview, e.getMessage());
                return;
            } catch (OutOfMemoryError e) {
                if (preview) IJ.showStatus(title() + ": out of memory");
                else IJ.outOfMemory(title());
                return;
            }
            if (stack && IJ.escapePressed()) {
                IJ.log(String.format(Locale.ROOT, "%s: aborted (Esc) after %d of %d slices; "
                        + "the image is unchanged", title(), i + 1, n));
                return;
            }
        }
        long nanos = System.nanoTime() - start;
        Rectangle r = ip.getRoi();
        byte[] mask = ip.getMaskArray();
        boolean wholeStack = stack && !images.isVirtual() && mask == null && r.width == width
                && r.height == height;
        if (wholeStack) {
            // All of every slice: the new arrays become the slices (a stack has no Undo), and
            // the current slice's processor takes its own, as ImagePlus.setSlice would.
            for (int i = 0; i < n; i++) images.setPixels(filtered[i], i + 1);
            ip.setPixels(images.getPixels(imp.getCurrentSlice()));
        } else {
            for (int i = 0; i < n; i++)
                copySelection(filtered[i], stack ? images.getPixels(i + 1) : ip.getPixels(), width,
                        r, mask);
        }
        if (ip.getPixels() instanceof float[]) ip.resetMinAndMax();
        if (!preview) log(n, ran, nanos);
    }

    // The preview says what is wrong in the status bar, a run (or a macro) in an error dialog.
    private void report(boolean preview, String message) {
        if (preview) IJ.showStatus(title() + ": " + message);
        else IJ.error(title(), message);
    }

    /**
     * Copies the selection from one slice to another: the rectangle {@code r}, less the pixels
     * that are 0 in the mask of a non-rectangular selection ({@code mask}, r's size, or null).
     */
    static void copySelection(Object from, Object to, int width, Rectangle r, byte[] mask) {
        for (int y = 0; y < r.height; y++) {
            int row = (r.y + y) * width + r.x;
            if (mask == null) {
                System.arraycopy(from, row, to, row, r.width);
                continue;
            }
            for (int x = 0; x < r.width; x++)
                if (mask[y * r.width + x] != 0) System.arraycopy(from, row + x, to, row + x, 1);
        }
    }

    private void log(int slices, RunInfo ran, long nanos) {
        String line = String.format(Locale.ROOT, "%s: %s, %d slice%s on %s in %.1f ms", title(),
                describe(), slices, slices == 1 ? "" : "s", ran, nanos / 1e6);
        if (ran.backend() == Backend.CPU)
            line += "; no GPU used: " + FastMedian.cudaUnavailableReason();
        IJ.log(line);
    }

    // As a macro prints numbers: 3, 2.5, -20.7.
    static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : String.valueOf(v);
    }
}
