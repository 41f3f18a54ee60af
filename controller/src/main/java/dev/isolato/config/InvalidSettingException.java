package dev.isolato.config;

/**
 * A setting the controller cannot start with. {@link InvalidSettingFailureAnalyzer} reports it as
 * Spring Boot's "APPLICATION FAILED TO START" block: the message as one line saying which setting
 * and what is wrong with it, and the action, instead of a stack trace.
 */
public class InvalidSettingException extends RuntimeException {
  private final String action;

  public InvalidSettingException(String message, String action, Throwable cause) {
    super(message, cause);
    this.action = action;
  }

  /** What the person starting the controller should change. */
  public String action() {
    return action;
  }
}
