// Case functions for the macro Median3DMacroTest writes. The test compares the saved results
// with the CLI's and with ImageJ's own Median 3D... afterwards; here each case prints
// "RAN <case>: <title>", or "FAIL <case>: <why>" when the command did not change the image in
// place.

// Makes the inputs: the bead stack as 32-bit (fractions, negative values), an RGB stack from
// it (red: the beads, green: inverted, blue: the slices reversed) and its three channels, and a
// hyperstack of the 16-bit movie (2 channels x 6 slices x 4 time points).
function prepareInputs(beads, movie, dir) {
    open(beads);
    run("32-bit");
    run("Subtract...", "value=60 stack");
    run("Divide...", "value=7 stack");
    saveAs("Tiff", dir + "in_f32.tif");
    close();

    open(beads);
    rename("red");
    run("Duplicate...", "title=green duplicate");
    run("Invert", "stack");
    selectImage("red");
    run("Duplicate...", "title=blue duplicate");
    run("Reverse");
    run("Merge Channels...", "c1=red c2=green c3=blue");
    saveAs("Tiff", dir + "in_rgb.tif");
    run("Split Channels");
    colours = newArray("red", "green", "blue");
    for (i = 0; i < 3; i++) {
        selectImage("in_rgb.tif (" + colours[i] + ")");
        saveAs("Tiff", dir + "in_rgb_" + colours[i] + ".tif");
    }
    close("*");

    open(movie);
    run("Stack to Hyperstack...", "order=xyczt(default) channels=2 slices=6 frames=4 "
        + "display=Grayscale");
    saveAs("Tiff", dir + "in_hyper_czt.tif");
    close();
}

// Runs ImageJ's Median 3D... on a copy of the image at `input` and saves it at `imagej` (unless
// that is ""), then runs the command on the image itself and saves it, changed in place, at
// `output`.
function median3d(label, input, options, output, imagej) {
    open(input);
    original = getImageID();
    images = nImages;
    if (imagej != "") {
        run("Duplicate...", "title=imagej duplicate");
        run("Median 3D...", options);
        saveAs("Tiff", imagej);
        close();
        selectImage(original);
    }
    run("3D Median (fastmedian)...", options);
    if (nImages != images || getImageID() != original) {
        print("FAIL " + label + ": " + (nImages - images) + " new image(s), not in place");
    } else {
        print("RAN " + label + ": " + getTitle());
        saveAs("Tiff", output);
    }
    close("*");
}
