package dev.isolato.api;

/** One invalid field of a request, as listed in a 400 problem's {@code errors}. */
public record FieldError(String field, String message) {}
