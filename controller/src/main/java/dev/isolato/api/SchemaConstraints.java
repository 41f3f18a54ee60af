package dev.isolato.api;

import com.fasterxml.jackson.databind.JavaType;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.Iterator;
import org.springframework.stereotype.Component;

/**
 * Puts the CRD generator's constraint annotations (Required, Min, Max, Pattern, Size) of Isolato's
 * types into the OpenAPI document, so the CRD schema, the OpenAPI document and the REST validation
 * share one definition per rule ({@link dev.isolato.tenancy.SpecLimits}).
 */
@Component
public class SchemaConstraints implements ModelConverter {

  @Override
  @SuppressWarnings("rawtypes")
  public Schema resolve(
      AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
    Schema schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
    JavaType java = Json.mapper().constructType(type.getType());
    Class<?> cls = java.getRawClass();
    if (schema == null || !cls.getName().startsWith("dev.isolato.")) {
      return schema;
    }
    Schema model =
        schema.get$ref() == null
            ? schema
            : context
                .getDefinedModels()
                .get(schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1));
    if (model != null && model.getProperties() != null) {
      for (Field f : cls.getDeclaredFields()) {
        Schema property = (Schema) model.getProperties().get(f.getName());
        if (property != null && !Modifier.isStatic(f.getModifiers())) {
          constrain(f, property, model);
        }
      }
    }
    return schema;
  }

  @SuppressWarnings("rawtypes")
  private static void constrain(Field f, Schema property, Schema parent) {
    if (f.isAnnotationPresent(Required.class)
        && (parent.getRequired() == null || !parent.getRequired().contains(f.getName()))) {
      parent.addRequiredItem(f.getName());
    }
    if (property.get$ref() != null) {
      return;
    }
    // OpenAPI 3.1 (JSON Schema 2020-12): an exclusive bound is a number of its own
    Min min = f.getAnnotation(Min.class);
    if (min != null && min.inclusive()) {
      property.setMinimum(number(min.value()));
    } else if (min != null) {
      property.setExclusiveMinimumValue(number(min.value()));
    }
    Max max = f.getAnnotation(Max.class);
    if (max != null && max.inclusive()) {
      property.setMaximum(number(max.value()));
    } else if (max != null) {
      property.setExclusiveMaximumValue(number(max.value()));
    }
    Pattern pattern = f.getAnnotation(Pattern.class);
    if (pattern != null) {
      property.setPattern(pattern.value());
    }
    Size size = f.getAnnotation(Size.class);
    if (size != null && property.getItems() != null) {
      property.setMinItems(size.min() > 0 ? (int) size.min() : null);
      property.setMaxItems(size.max() < Long.MAX_VALUE ? (int) size.max() : null);
    } else if (size != null) {
      property.setMinLength(size.min() > 0 ? (int) size.min() : null);
      property.setMaxLength(size.max() < Long.MAX_VALUE ? (int) size.max() : null);
    }
  }

  private static BigDecimal number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? BigDecimal.valueOf((long) v)
        : BigDecimal.valueOf(v);
  }
}
