package org.fastmedian;

/**
 * Every failure of a fastmedian call. {@link #code()} says what kind: the library's error codes
 * ({@code invalid_argument}, {@code unsupported}, {@code backend_unavailable},
 * {@code device_error}, {@code io_error}; {@code cancelled} only where a C++ caller's CancelScope
 * stops a call, which the bridge never sets up), {@code out_of_memory} and {@code internal_error}
 * from the bridge, and {@code library_not_loaded} when the native library could not be loaded.
 * The message names the offending parameter.
 */
public class FastMedianException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public FastMedianException(String code, String message) {
        super(message);
        this.code = code;
    }

    public FastMedianException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return "FastMedianException[" + code + "]: " + getMessage();
    }
}
