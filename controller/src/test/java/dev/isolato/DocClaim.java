package dev.isolato;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The doc text a test backs, as {@code "<page>.md: <exact phrase of it>"}, e.g.
 * {@code @DocClaim("docs/api.md: 412 when the ETag is stale")}. docs/tools/test_doc_claims.py (make
 * test-docs-static) reads these from the source: every phrase must still be in its page, and every
 * line of the reference pages that states a status code, a retry or a default must be named by some
 * test.
 */
@Retention(RetentionPolicy.SOURCE)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(DocClaim.List.class)
public @interface DocClaim {
  String value();

  /** Several claims on one test. */
  @Retention(RetentionPolicy.SOURCE)
  @Target({ElementType.METHOD, ElementType.TYPE})
  @interface List {
    DocClaim[] value();
  }
}
