package dev.isolato.scaling;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/**
 * KEDA's ScaledObject as a typed resource, so that an informer on it needs no API discovery (a
 * generic one does, and fails where KEDA's CRD is absent, even to be deregistered). Its spec is
 * kept as the JSON tree {@link ScaledObjects} builds. Not Isolato's CRD: the CRD generator skips
 * this package (controller/pom.xml).
 */
@Group("keda.sh")
@Version("v1alpha1")
@Kind(ScaledObjects.KIND)
public class ScaledObject extends CustomResource<Map<String, Object>, Map<String, Object>>
    implements Namespaced {
  /** The typed form of a ScaledObject built as a generic resource. */
  @SuppressWarnings("unchecked")
  public static ScaledObject of(GenericKubernetesResource generic) {
    ScaledObject so = new ScaledObject();
    so.setMetadata(generic.getMetadata());
    so.setSpec((Map<String, Object>) generic.getAdditionalProperties().get("spec"));
    return so;
  }
}
