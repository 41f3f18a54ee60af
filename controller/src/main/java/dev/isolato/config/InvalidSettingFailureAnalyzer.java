package dev.isolato.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidSettingException} anywhere in a start-up failure's causes into its message
 * and action.
 */
class InvalidSettingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSettingException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidSettingException cause) {
    return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
  }
}
