package dev.isolato;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No two packages of dev.isolato depend on each other, directly or through others: a package can
 * then be read, tested and moved after the ones it uses. Every package is a node, and a class's
 * dependency on another package's class (field, call, signature, annotation, inheritance) is an
 * edge; the main classes only, as ArchUnit reads them from the class files.
 */
class PackageCyclesTest {

  @Test
  void packagesFormNoCycleButTheKnownOnes() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.isolato");
    Map<String, Set<String>> graph = packageGraph(classes);
    assertThat(graph).as("the controller's packages were read").containsKeys("dev.isolato.api");
    assertThat(cycles(graph)).isEmpty();
  }

  @Test
  void aCycleIsFoundThroughAnyNumberOfPackages() {
    Map<String, Set<String>> graph =
        Map.of(
            "a", Set.of("b"),
            "b", Set.of("c"),
            "c", Set.of("a", "d"),
            "d", Set.of(),
            "e", Set.of("e"));
    assertThat(cycles(graph)).containsExactly(Set.of("a", "b", "c"));
  }

  /** Package → the other dev.isolato packages its classes depend on. */
  static Map<String, Set<String>> packageGraph(JavaClasses classes) {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (JavaClass c : classes) {
      Set<String> uses = graph.computeIfAbsent(c.getPackageName(), p -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String target = d.getTargetClass().getPackageName();
        if (target.startsWith("dev.isolato.") && !target.equals(c.getPackageName())) {
          uses.add(target);
        }
      }
    }
    return graph;
  }

  /**
   * The graph's cycles as the sets of packages that reach each other: its strongly connected
   * components of more than one package (Tarjan's algorithm; a few dozen packages deep at most).
   */
  static List<Set<String>> cycles(Map<String, Set<String>> graph) {
    Tarjan t = new Tarjan(graph);
    graph.keySet().forEach(p -> t.visitOnce(p));
    return t.cycles;
  }

  private static final class Tarjan {
    final Map<String, Set<String>> graph;
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, Integer> low = new HashMap<>();
    final Deque<String> stack = new ArrayDeque<>();
    final List<Set<String>> cycles = new ArrayList<>();

    Tarjan(Map<String, Set<String>> graph) {
      this.graph = graph;
    }

    void visitOnce(String v) {
      if (!index.containsKey(v)) {
        visit(v);
      }
    }

    void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      for (String w : graph.getOrDefault(v, Set.of())) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (stack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          cycles.add(component);
        }
      }
    }
  }
}
