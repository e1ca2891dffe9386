package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * Several commands at once, as plugins and scripts run them in ImageJ: each in a thread of its
 * own, through IJ.run on an image of its own. Called from a macro as
 * {@code call("org.fastmedian.fiji.ConcurrentCommandsProbe.runAtOnce", label)} on the active
 * image; prints "PASS label" when every copy of it filtered alongside the others equals the
 * same command run alone, and "PASS label, locked" when a command on the image while another
 * thread holds it locked left it unchanged (ImageJ refuses filters on a locked image); else
 * "FAIL ...".
 */
public final class ConcurrentCommandsProbe {
    /** Command and options; thread t runs COMMANDS[t % COMMANDS.length]. */
    static final String[][] COMMANDS = {
        {"Median (fastmedian)...", "radius=2 stack"},
        {"Gaussian Blur (fastmedian)...", "sigma=1.5 stack"},
        {"3D Median (fastmedian)...", "x=1 y=1 z=1"},
        {"Background Subtraction (fastmedian)...", "radius=10 offset=5 stack"},
    };
    static final int THREADS = 2 * COMMANDS.length;

    private ConcurrentCommandsProbe() {}

    public static String runAtOnce(String label) throws InterruptedException {
        ImagePlus image = IJ.getImage();
        List<ImagePlus> alone = new ArrayList<>();
        for (String[] c : COMMANDS) {
            ImagePlus copy = image.duplicate();
            IJ.run(copy, c[0], c[1]);
            if (MacroErrorProbe.samePixels(image.getStack(), copy.getStack())) {
                IJ.log("FAIL " + label + ": " + c[0] + " alone did not change the image");
                return "";
            }
            alone.add(copy);
        }
        ImagePlus[] copies = new ImagePlus[THREADS];
        Throwable[] errors = new Throwable[THREADS];
        Thread[] threads = new Thread[THREADS];
        // Released together, so that the commands run at the same time.
        CyclicBarrier start = new CyclicBarrier(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int i = t;
            String[] c = COMMANDS[t % COMMANDS.length];
            copies[t] = image.duplicate();
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                    IJ.run(copies[i], c[0], c[1]);
                } catch (Throwable e) {
                    errors[i] = e;
                }
            }, "fastmedian-probe-" + t);
            threads[t].start();
        }
        for (Thread t : threads) t.join();
        boolean pass = true;
        for (int t = 0; t < THREADS; t++) {
            String command = COMMANDS[t % COMMANDS.length][0];
            if (errors[t] != null) {
                IJ.log("FAIL " + label + ": " + command + " in thread " + t + " threw "
                        + errors[t]);
                pass = false;
            } else if (!MacroErrorProbe.samePixels(alone.get(t % COMMANDS.length).getStack(),
                    copies[t].getStack())) {
                IJ.log("FAIL " + label + ": " + command + " in thread " + t
                        + " differs from the same command run alone");
                pass = false;
            }
        }
        if (pass) IJ.log("PASS " + label);
        runOnLocked(label + ", locked", image, alone.get(0));
        return "";
    }

    // This thread holds a copy locked while another runs a command on it; once unlocked, the
    // same call must filter it, so that the refusal is the lock's.
    private static void runOnLocked(String label, ImagePlus image, ImagePlus alone)
            throws InterruptedException {
        ImagePlus held = image.duplicate();
        if (!held.lock()) {
            IJ.log("FAIL " + label + ": cannot lock the image");
            return;
        }
        Throwable[] error = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                IJ.run(held, COMMANDS[0][0], COMMANDS[0][1]);
            } catch (Throwable e) {
                error[0] = e;
            }
        });
        other.start();
        other.join();
        held.unlock();
        boolean unchanged = MacroErrorProbe.samePixels(image.getStack(), held.getStack());
        IJ.run(held, COMMANDS[0][0], COMMANDS[0][1]);
        if (error[0] != null)
            IJ.log("FAIL " + label + ": the command threw " + error[0]);
        else if (!unchanged)
            IJ.log("FAIL " + label + ": the locked image changed");
        else if (!MacroErrorProbe.samePixels(alone.getStack(), held.getStack()))
            IJ.log("FAIL " + label + ": once unlocked, the command did not filter it");
        else
            IJ.log("PASS " + label);
    }
}
