package dev.isolato.slo;

import dev.isolato.calibration.FieldError;
import java.util.List;
import java.util.stream.Collectors;

/** Input the engine cannot use; carries every field error so the caller can report them all. */
public final class InvalidInputException extends IllegalArgumentException {
  private final transient List<FieldError> errors;

  public InvalidInputException(List<FieldError> errors) {
    super(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
  }

  public List<FieldError> errors() {
    return errors;
  }

  /** Throws when {@code errors} is not empty. */
  public static void throwIfAny(List<FieldError> errors) {
    if (!errors.isEmpty()) {
      throw new InvalidInputException(errors);
    }
  }
}
