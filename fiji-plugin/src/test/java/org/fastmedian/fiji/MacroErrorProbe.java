package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.WindowManager;
import ij.macro.Interpreter;
import java.util.Arrays;

/**
 * Runs, from a macro, a command that must fail, and prints "PASS label: message" when it failed
 * with an error, left the active image unchanged and opened no other image. Called as
 * {@code call("org.fastmedian.fiji.MacroErrorProbe.expectError", label, command, options)}.
 *
 * <p>Why Java: an IJ.error raised by a command inside a macro aborts the macro with a modal
 * "Macro Error" dialog, which blocks ImageJ under Xvfb forever. Here the interpreter records the
 * error instead (setIgnoreErrors), which still ends the macro, so this must be its last call.
 */
public final class MacroErrorProbe {
    private MacroErrorProbe() {}

    public static String expectError(String label, String command, String options) {
        ImagePlus image = IJ.getImage();
        ImagePlus before = image.duplicate();
        int images = WindowManager.getImageCount();
        Interpreter macro = Interpreter.getInstance();
        macro.setIgnoreErrors(true);
        IJ.run(macro, command, options);
        String error = macro.getErrorMessage();
        if (error == null)
            IJ.log("FAIL " + label + ": no error");
        else if (!samePixels(before.getStack(), image.getStack()))
            IJ.log("FAIL " + label + ": the image changed");
        else if (WindowManager.getImageCount() != images)
            IJ.log("FAIL " + label + ": " + (WindowManager.getImageCount() - images)
                    + " image(s) opened");
        else
            IJ.log("PASS " + label + ": " + error);
        return "";
    }

    static boolean samePixels(ImageStack a, ImageStack b) {
        if (a.getSize() != b.getSize()) return false;
        for (int i = 1; i <= a.getSize(); i++) {
            Object pa = a.getPixels(i), pb = b.getPixels(i);
            boolean same = pa instanceof byte[] ? Arrays.equals((byte[]) pa, (byte[]) pb)
                    : pa instanceof short[] ? Arrays.equals((short[]) pa, (short[]) pb)
                    : pa instanceof int[] ? Arrays.equals((int[]) pa, (int[]) pb)
                    : Arrays.equals((float[]) pa, (float[]) pb);
            if (!same) return false;
        }
        return true;
    }
}
