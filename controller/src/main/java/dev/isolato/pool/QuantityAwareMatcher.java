package dev.isolato.pool;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.SSABasedGenericKubernetesResourceMatcher;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * JOSDK's server-side-apply matcher (the fields Isolato manages, compared with what Isolato wants:
 * an extra one is a mismatch too), except that Kubernetes quantities compare by value. The API
 * server stores a quantity in canonical form ("1000m" becomes "1"), so comparing the strings would
 * see a difference, and write, on every reconcile.
 */
public final class QuantityAwareMatcher<R extends HasMetadata>
    extends SSABasedGenericKubernetesResourceMatcher<R> {
  private static final Pattern QUANTITY =
      Pattern.compile("^[+-]?[0-9.]+([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$");

  @Override
  protected boolean matches(
      Map<String, Object> actualMap,
      Map<String, Object> desiredMap,
      R actual,
      R desired,
      Context<?> context) {
    return same(actualMap, desiredMap);
  }

  /** Equality of two JSON trees (maps, lists, scalars) in which quantities compare by value. */
  static boolean same(Object a, Object b) {
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      return ma.keySet().equals(mb.keySet())
          && ma.keySet().stream().allMatch(k -> same(ma.get(k), mb.get(k)));
    }
    if (a instanceof List<?> la && b instanceof List<?> lb) {
      if (la.size() != lb.size()) {
        return false;
      }
      for (int i = 0; i < la.size(); i++) {
        if (!same(la.get(i), lb.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof String sa && b instanceof String sb && !sa.equals(sb)) {
      return sameQuantity(sa, sb);
    }
    if (a instanceof Number na && b instanceof Number nb) {
      return new BigDecimal(na.toString()).compareTo(new BigDecimal(nb.toString())) == 0;
    }
    return Objects.equals(a, b);
  }

  static boolean sameQuantity(String a, String b) {
    return QUANTITY.matcher(a).matches()
        && QUANTITY.matcher(b).matches()
        && Quantity.getAmountInBytes(new Quantity(a))
                .compareTo(Quantity.getAmountInBytes(new Quantity(b)))
            == 0;
  }
}
