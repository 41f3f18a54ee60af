package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolContextTest {

  @Test
  void poolsOfOneReconcileKeepTheirDesiredObjectsApart() {
    SloClass cls = new SloClass();
    cls.getMetadata().setName("gold");
    Context<SloClass> reconcile = reconcileContext(cls);
    PoolContext a = new PoolContext(reconcile);
    PoolContext b = new PoolContext(reconcile);
    a.managedWorkflowAndDependentResourceContext().put(PoolDependent.DESIRED, List.of("a"));
    b.managedWorkflowAndDependentResourceContext().put(PoolDependent.DESIRED, List.of("b"));
    assertThat(
            a.managedWorkflowAndDependentResourceContext()
                .getMandatory(PoolDependent.DESIRED, List.class))
        .containsExactly("a");
    assertThat(
            b.managedWorkflowAndDependentResourceContext()
                .getMandatory(PoolDependent.DESIRED, List.class))
        .containsExactly("b");
    // the rest is the reconcile's
    assertThat(a.getPrimaryResource()).isSameAs(cls);
  }

  /** A reconcile's context that only knows its primary (the rest is not used here). */
  @SuppressWarnings("unchecked")
  private static Context<SloClass> reconcileContext(SloClass primary) {
    return (Context<SloClass>)
        Proxy.newProxyInstance(
            Context.class.getClassLoader(),
            new Class<?>[] {Context.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getPrimaryResource")) {
                return primary;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
