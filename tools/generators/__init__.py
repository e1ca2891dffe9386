"""The code generators: each module but the shared ones (output, networks, windows) writes the
files of one folder or header, checked in, and runs from tools/generate.py."""

# In the order `python3 tools/generate.py all` runs them.
GENERATORS = ["median_column_networks", "median_networks", "temporal_networks", "median_tiled",
              "median3d_tiled", "median_column_tiles", "median_stream", "cpu_tiled_networks"]
