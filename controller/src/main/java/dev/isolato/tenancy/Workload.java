package dev.isolato.tenancy;

import java.util.List;

/** The saas-bench contract the pool objects rely on (docs/saas-bench.md). One place to adapt. */
public final class Workload {
  public static final String NAME = "saas-bench";
  public static final String DEFAULT_IMAGE = "localhost/isolato/saas-bench:dev";
  public static final int PORT = 8080;
  public static final String TABLE_DIR = "/etc/saas-bench/table";
  public static final String ADMIN_DIR = "/etc/saas-bench/admin";
  public static final String ADMIN_TOKEN_KEY = "token";
  public static final String ADMIN_TABLE_PATH = "/v1/admin/tenants";
  public static final String TABLE_CONFIGMAP = "tenant-table";
  public static final String ADMIN_SECRET = "saas-bench-admin";

  /** Scratch directory of the io stress (an emptyDir). */
  public static final String DATA_DIR = "/data";

  /** The filler Deployment of a class with vertical headroom (its pods soak idle CPU). */
  public static final String FILLER_NAME = "isolato-filler";

  /** The filler's memory (requests == limits): saas-bench's soak allocates nothing per step. */
  public static final String FILLER_MEMORY = "16Mi";

  private Workload() {}

  /** The image a class's pods run: its spec.image, or the saas-bench image. */
  public static String imageOf(SloClassSpec spec) {
    return spec == null || spec.image == null || spec.image.isBlank() ? DEFAULT_IMAGE : spec.image;
  }

  /** Command-line arguments of the workload container. */
  public static List<String> args() {
    return List.of(
        "--listen", "0.0.0.0:" + PORT,
        "--tenants", TABLE_DIR + "/" + TenantTable.FILE,
        "--admin-token-file", ADMIN_DIR + "/" + ADMIN_TOKEN_KEY,
        "--data-dir", DATA_DIR);
  }

  /**
   * Command-line arguments of the filler container: CPU soak until SIGTERM, one thread per core of
   * its limit.
   */
  public static List<String> fillerArgs() {
    return List.of("soak");
  }
}
