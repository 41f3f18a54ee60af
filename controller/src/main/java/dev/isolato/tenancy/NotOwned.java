package dev.isolato.tenancy;

/**
 * An object of the desired name exists and is not the desired owner's: nothing was written to it.
 */
public final class NotOwned extends RuntimeException {
  public NotOwned(String message) {
    super(message);
  }
}
