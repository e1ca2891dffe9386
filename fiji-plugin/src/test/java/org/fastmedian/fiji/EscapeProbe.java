package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.plugin.filter.PlugInFilterRunner;
import java.awt.event.KeyEvent;

/**
 * Median (fastmedian) run on the active stack as ImageJ runs it from a macro, by a user who
 * presses Esc while slice N is filtered (0: never). Called from a macro as
 * {@code call("org.fastmedian.fiji.EscapeProbe.medianStack", label, radius, N)}; prints
 * "PASS label" when the stack is then unchanged (Esc) or changed (no Esc), else "FAIL label".
 */
public class EscapeProbe extends MedianCommand {
    private final int escapeAt;
    private int slices;

    private EscapeProbe(int escapeAt) {
        this.escapeAt = escapeAt;
    }

    @Override
    SliceFilter.Filtered filter(Object pixels, int width, int height) {
        if (++slices == escapeAt) IJ.setKeyDown(KeyEvent.VK_ESCAPE);  // as ImageJ's key listener
        return super.filter(pixels, width, height);
    }

    public static String medianStack(String label, String radius, String escapeAt) {
        ImagePlus image = IJ.getImage();
        ImagePlus before = image.duplicate();
        // The command reads macro options only in threads named as IJ.run names them.
        Thread thread = Thread.currentThread();
        if (!thread.getName().startsWith("Run$_")) thread.setName("Run$_" + thread.getName());
        Macro.setOptions(thread, "radius=" + radius + " stack");
        boolean escape = Integer.parseInt(escapeAt) > 0;
        new PlugInFilterRunner(new EscapeProbe(Integer.parseInt(escapeAt)),
                "Median (fastmedian)...", "");
        Macro.setOptions(thread, null);
        IJ.resetEscape();
        boolean unchanged = MacroErrorProbe.samePixels(before.getStack(), image.getStack());
        if (unchanged == escape) IJ.log("PASS " + label);
        else IJ.log("FAIL " + label + ": the stack " + (unchanged ? "is unchanged" : "changed"));
        return "";
    }
}
