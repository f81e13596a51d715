static const char help[] = "SIPDG and incompressible-flow kernel benchmark against the empirical roofline of seed 000 §5.1.\n"
                           "Measures the device-to-device copy bandwidth and the shared-memory bound of the GPU, then\n"
                           "times the local-gradient and SIPDG-apply kernels and the incompressible-flow advection N(u),\n"
                           "gradient and divergence kernels for each order on the mesh given by the usual options and\n"
                           "reports GFLOP/s, GB/s and percent of the roofline (table and CSV, one row per kernel and order).\n"
                           "With -dm_vec_type cuda it runs the CUDA kernels, otherwise the host kernels (one core), whose\n"
                           "roofline is min(triad bandwidth x W / D, FP64 peak): a STREAM-like triad and mul+add chains timed here.\n"
                           "Options: -bench_orders 1,...,10 -bench_reps R -bench_csv FILE -bench_epb_sweep -bench_cg_order N\n"
                           "         -bench_ins false (SIPDG kernels only) -bench_kernels dense|tensor|both (quadrilaterals, hexahedra)\n"
                           "         -bench_stream_mib M (CPU: MiB per triad array, 256) -bench_cpu_peak_gflops G (CPU: state the peak)\n\n";

#include <hoflow/insops.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/ins.h>
#include <hoflow/kernels/ipdg.h>
#include <hoflow/kernels/ipdg_tensor.h>
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <petscksp.h>
#include "copy_bandwidth.h"

/* The CPU's memory bandwidth: a STREAM-like triad a = b + s c over three arrays of `mib` MiB each
 * (far larger than the caches), best of 10 passes, counted as STREAM does: two arrays read and one
 * written per pass (24 bytes per entry, the write-allocate read not counted), the same convention
 * as the kernels' bytes D (inputs read plus outputs written). */
static PetscErrorCode MeasureTriadBandwidth(PetscInt mib, PetscReal *bandwidth)
{
  const size_t    n = (size_t)mib * 1024 * 1024 / sizeof(PetscReal);
  const PetscReal s = 3.0;
  PetscReal      *a, *b, *c, best = PETSC_MAX_REAL;

  PetscFunctionBeginUser;
  PetscCheck(mib >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-bench_stream_mib %" PetscInt_FMT " must be >= 1 (MiB per triad array; use several times the last-level cache)", mib);
  PetscCall(PetscMalloc3(n, &a, n, &b, n, &c));
  for (size_t i = 0; i < n; i++) { /* first touch: page faults stay out of the timing */
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  for (PetscInt rep = 0; rep < 10; rep++) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, (PetscReal)(t1 - t0));
  }
  PetscCheck(a[n / 2] == 7.0 && best > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "triad check failed (a = %g, %g s)", (double)a[n / 2], (double)best);
  *bandwidth = 3.0 * sizeof(PetscReal) * n / best;
  PetscCall(PetscFree3(a, b, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Independent chains x = x a + b, enough of them to cover the latency of the multiply and add units
 * with the vector registers of the build's instruction set (the compiler vectorizes the inner loop). */
#if defined(__AVX512F__)
#  define PEAK_CHAINS 64
#elif defined(__AVX__)
#  define PEAK_CHAINS 32
#else
#  define PEAK_CHAINS 24
#endif
static PetscReal PeakChains(long iters, PetscReal seed)
{
  PetscReal       x[PEAK_CHAINS], sum = 0;
  const PetscReal a = 1.0 - 1e-9, b = 1e-9;

  for (int i = 0; i < PEAK_CHAINS; i++) x[i] = seed + i;
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < PEAK_CHAINS; i++) x[i] = x[i] * a + b;
  for (int i = 0; i < PEAK_CHAINS; i++) sum += x[i];
  return sum;
}

/* The FP64 peak one core reaches with code compiled like the kernels (same flags, so the same vector
 * width, and fused multiply-adds only where those flags allow them): 2 flops per chain and round,
 * timed over at least 0.1 s, best of 5. */
static PetscErrorCode MeasurePeakFlops(PetscReal *flops)
{
  long               iters = 1000;
  PetscLogDouble     t0, t1;
  PetscReal          best = 0;
  volatile PetscReal sink = 0;

  PetscFunctionBeginUser;
  for (;;) { /* calibrate */
    PetscCall(PetscTime(&t0));
    sink = sink + PeakChains(iters, 1.0);
    PetscCall(PetscTime(&t1));
    if (t1 - t0 >= 0.1) break;
    iters *= 2;
  }
  for (PetscInt rep = 0; rep < 5; rep++) {
    PetscCall(PetscTime(&t0));
    sink = sink + PeakChains(iters, 1.0 + rep);
    PetscCall(PetscTime(&t1));
    best = PetscMax(best, 2.0 * PEAK_CHAINS * (PetscReal)iters / (PetscReal)(t1 - t0));
  }
  PetscCheck(PetscIsNormalReal(sink), PETSC_COMM_SELF, PETSC_ERR_PLIB, "peak-flops chains gave %g", (double)sink);
  *flops = best;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal t, flops, bytes, shared;
} KernelTiming;

/* The bounds a kernel is measured against, in bytes/s and flop/s; 0 where a bound does not apply. */
typedef struct {
  PetscReal Bg;   /* memory bandwidth: device-to-device copy (GPU) or STREAM-like triad (CPU) */
  PetscReal Bsh;  /* shared-memory bandwidth (GPU, seed 000 §5.1); 0 on the CPU */
  PetscReal peak; /* FP64 peak (CPU, measured or -bench_cpu_peak_gflops); 0 on the GPU (the seed's roofline has none) */
} Roofline;

/* Print one kernel's row: GFLOP/s, GB/s, the bounds and the fraction of the roofline. Bounds that do
 * not apply, and the CUDA launch shape of host kernels (epb < 0), are '-' in the table and empty
 * fields in the CSV. */
static PetscErrorCode ReportKernel(FILE *csv, const char *device, const char *shape, PetscInt N, PetscInt K, PetscInt epb, PetscInt ept, const char *kernel, KernelTiming k, Roofline r)
{
  PetscReal gflops, gbs, bound[3], roof = PETSC_MAX_REAL;
  char      tcol[3][32], ccol[3][32], tshape[2][16], cshape[2][16];

  PetscFunctionBeginUser;
  PetscCheck(k.t > 0 && k.flops > 0 && k.bytes > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "kernel %s N=%" PetscInt_FMT ": %g s for %g flops and %g bytes; a time of 0 is below the timer's resolution: raise -bench_reps", kernel, N, (double)k.t, (double)k.flops, (double)k.bytes);
  PetscCheck(r.Bg > 0 && (r.Bsh > 0 || r.peak > 0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "roofline without a second bound (Bg %g, Bsh %g, peak %g)", (double)r.Bg, (double)r.Bsh, (double)r.peak);
  gflops   = k.flops / k.t * 1e-9;
  gbs      = k.bytes / k.t * 1e-9;
  bound[0] = r.Bg * k.flops / k.bytes * 1e-9;
  bound[1] = r.Bsh > 0 ? r.Bsh * k.flops / k.shared * 1e-9 : 0;
  bound[2] = r.peak * 1e-9;
  for (PetscInt b = 0; b < 3; b++) {
    if (bound[b] > 0) {
      roof = PetscMin(roof, bound[b]);
      PetscCall(PetscSNPrintf(tcol[b], sizeof(tcol[b]), "%9.1f", (double)bound[b]));
      PetscCall(PetscSNPrintf(ccol[b], sizeof(ccol[b]), "%.3f", (double)bound[b]));
    } else {
      PetscCall(PetscSNPrintf(tcol[b], sizeof(tcol[b]), "%9s", "-"));
      ccol[b][0] = 0;
    }
  }
  if (epb >= 0) {
    PetscCall(PetscSNPrintf(tshape[0], sizeof(tshape[0]), "%3" PetscInt_FMT, epb));
    PetscCall(PetscSNPrintf(tshape[1], sizeof(tshape[1]), "%2" PetscInt_FMT, ept));
    PetscCall(PetscSNPrintf(cshape[0], sizeof(cshape[0]), "%" PetscInt_FMT, epb));
    PetscCall(PetscSNPrintf(cshape[1], sizeof(cshape[1]), "%" PetscInt_FMT, ept));
  } else {
    PetscCall(PetscSNPrintf(tshape[0], sizeof(tshape[0]), "%3s", "-"));
    PetscCall(PetscSNPrintf(tshape[1], sizeof(tshape[1]), "%2s", "-"));
    cshape[0][0] = cshape[1][0] = 0;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-13s %2" PetscInt_FMT " %-14s %s %s %10.3e %9.1f %8.1f %s %s %s %6.1f%%\n", shape, N, kernel, tshape[0], tshape[1], (double)k.t, (double)gflops, (double)gbs, tcol[0], tcol[1], tcol[2], (double)(100 * gflops / roof)));
  if (csv) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%s,%" PetscInt_FMT ",%s,%" PetscInt_FMT ",%s,%s,%.6e,%.3f,%.3f,%s,%s,%s,%.2f\n", device, shape, N, kernel, K, cshape[0], cshape[1], (double)k.t, (double)gflops, (double)gbs, ccol[0], ccol[1], ccol[2], (double)(100 * gflops / roof)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The incompressible-flow kernels of one order (op/ins.c, seed 000 §5.3): advection N(u) with a = c
 * (the nonlinear term), gradient and divergence; the mesh's boundary faces are Dirichlet faces. */
static PetscErrorCode BenchINS(FILE *csv, const char *device, Mesh *mesh, DGDisc *disc, PetscInt reps, PetscBool on_device, Roofline roofline)
{
  const PetscInt dim = mesh->dim, N = disc->N, Np = disc->Np, Nf = disc->ref->Nfaces, Nfp = disc->ref->Nfp[0], nf = Nf * Nfp, nq = INS_NQ(N);
  const PetscInt Nfq = dim == 2 ? nq : nq * nq, Nc = dim == 2 ? nq * nq : nq * nq * nq;
  const char    *names[3] = {"ins-advection", "ins-gradient", "ins-divergence"};
  INSOps         ops;
  Vec            u[3];
  PetscRandom    rnd;
  PetscReal      seconds[3];
  KernelTiming   k[3];

  PetscFunctionBeginUser;
  PetscCall(INSOpsCreate(disc, NULL, &ops));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  for (PetscInt c = 0; c < dim; c++) {
    PetscCall(DMCreateGlobalVector(disc->dm, &u[c]));
    PetscCall(VecSetRandom(u[c], rnd));
  }
  PetscCall(INSOpsTimeKernels(ops, u, reps, seconds));
  for (PetscInt i = 0; i < 3; i++) k[i].t = seconds[i];
  k[0].flops = mesh->K * INSAdvectionFlopsPerElement((int)dim, (int)Np, (int)Nc, (int)Nf, (int)Nfp, (int)Nfq);
  k[0].bytes = mesh->K * INSAdvectionBytesPerElement((int)dim, (int)Np, (int)Nf, (int)Nfp, (int)dim);
  k[1].flops = mesh->K * INSGradientFlopsPerElement((int)dim, (int)Np, (int)Nf, (int)Nfp);
  k[1].bytes = mesh->K * INSGradientBytesPerElement((int)dim, (int)Np, (int)Nf, (int)Nfp);
  k[2].flops = mesh->K * INSDivergenceFlopsPerElement((int)dim, (int)Np, (int)Nf, (int)Nfp);
  k[2].bytes = mesh->K * INSDivergenceBytesPerElement((int)dim, (int)Np, (int)Nf, (int)Nfp);
  /* Shared-memory bytes per element of the CUDA kernels (cuda/ins.cu), counted per thread as for the
   * SIPDG kernels (2D counts; in 3D a lower bound). Advection: writes of the four fields on the nodes,
   * the cubature and face fluxes, the lifted fluxes and right-hand sides; reads by the interpolation
   * (4 Nc Np), the traces at the face Gauss points (8 per point and face node), the weighted
   * derivatives (4 Nc Np), the face lift, the sum over the faces and the inverse mass (2 Np^2). */
  k[0].shared = mesh->K * 8.0 * (8.0 * Nc * Np + 10.0 * Nf * Nfq * Nfp + 2.0 * Np * Np + 6.0 * Np + 8.0 * nf + 4.0 * Nc + 2.0 * Nf * Nfq);
  k[1].shared = mesh->K * 8.0 * (Np * Np + 2.0 * Np * nf + Np + 2.0 * nf); /* p, wx, wy: written once, read per node */
  k[2].shared = mesh->K * 8.0 * (2.0 * Np * Np + Np * nf + 2.0 * Np + nf); /* u, v, w */
  for (PetscInt i = 0; i < 3; i++) {
    PetscInt epb = -1, ept = -1; /* host kernels: no launch shape */
#if defined(HOFLOW_HAVE_CUDA)
    if (on_device) {
      epb = INSElementsPerBlock((int)i, mesh->blocks[0].shape, (int)N);
      ept = INSElementsPerThread((int)i, mesh->blocks[0].shape, (int)N);
    }
#endif
    PetscCall(ReportKernel(csv, device, RefShapes[mesh->blocks[0].shape], N, mesh->Kglobal, epb, ept, names[i], k[i], roofline));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  for (PetscInt c = 0; c < dim; c++) PetscCall(VecDestroy(&u[c]));
  PetscCall(INSOpsDestroy(&ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mesh       *mesh;
  PetscInt    orders[HOFLOW_NMAX] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, norders = HOFLOW_NMAX, reps = 20, cg_order = 0, cg_its = 100, stream_mib = 256;
  PetscBool   sweep = PETSC_FALSE, on_device = PETSC_FALSE, ins = PETSC_TRUE, set;
  PetscInt    kinds_sel                   = 2;
  const char *kinds[]                     = {"dense", "tensor", "both"};
  char        csvname[PETSC_MAX_PATH_LEN] = "", device[256] = "CPU (one core)";
  FILE       *csv         = NULL;
  PetscReal   peak_gflops = 0;
  Roofline    roofline    = {0, 0, 0};
  VecType     vtype;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(HoflowLogRegister());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SIPDG benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-bench_orders", "Orders to benchmark", NULL, orders, &norders, &set));
  if (!set) norders = HOFLOW_NMAX; /* PetscOptionsIntArray zeroes the count when the option is absent */
  PetscCall(PetscOptionsInt("-bench_reps", "Applications timed per kernel", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsString("-bench_csv", "CSV output file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsBool("-bench_epb_sweep", "Sweep the elements per CUDA thread block", NULL, sweep, &sweep, NULL));
  PetscCall(PetscOptionsInt("-bench_cg_order", "Also time CG + Jacobi iterations at this order (0: no)", NULL, cg_order, &cg_order, NULL));
  PetscCall(PetscOptionsInt("-bench_cg_its", "CG iterations timed", NULL, cg_its, &cg_its, NULL));
  PetscCall(PetscOptionsBool("-bench_ins", "Also time the incompressible-flow kernels (advection, gradient, divergence)", NULL, ins, &ins, NULL));
  PetscCall(PetscOptionsInt("-bench_stream_mib", "Host kernels: MiB per array of the triad that measures the memory bandwidth (several times the last-level cache)", NULL, stream_mib, &stream_mib, NULL));
  PetscCall(PetscOptionsEList("-bench_kernels", "Quadrilaterals and hexahedra: time the dense kernels, the sum-factorized ones, or both", NULL, kinds, 3, kinds[kinds_sel], &kinds_sel, NULL));
  PetscCall(PetscOptionsReal("-bench_cpu_peak_gflops", "Host kernels: the core's FP64 peak in GFLOP/s (0: measure it)", NULL, peak_gflops, &peak_gflops, NULL));
  PetscOptionsEnd();
  PetscCheck(peak_gflops >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_cpu_peak_gflops %g must be > 0 (GFLOP/s), or 0 to measure the peak", (double)peak_gflops);

  PetscCall(MeshCreate(PETSC_COMM_WORLD, NULL, &mesh));
  {
    const MeshBoundaryType dirichlet = {"dirichlet", HOFLOW_FACE_DIRICHLET, mesh->dim == 3 ? "bottom,right,top,left,front,back" : "bottom,right,top,left", "Dirichlet data"};
    PetscCall(MeshSetBoundaryTypes(mesh, 1, &dirichlet));
  }
  PetscCall(DMGetVecType(mesh->dm, &vtype));
  PetscCall(PetscStrbeginswith(vtype, "cuda", &on_device));
  if (!on_device) PetscCall(PetscStrcmp(vtype, VECCUDA, &on_device));
#if defined(HOFLOW_HAVE_CUDA)
  if (on_device) {
    int    sms;
    double ghz;
    PetscCheck(!HoflowDeviceProperties(device, sizeof(device), &sms, &ghz), PETSC_COMM_SELF, PETSC_ERR_LIB, "cudaGetDeviceProperties failed");
    roofline.Bsh = sms * 32.0 * 4.0 * ghz * 1e9; /* seed 000 §5.1: SMs x ALUs x word length x clock */
  }
#endif
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device: %s\ncells: %" PetscInt_FMT " (%s)\n", device, mesh->Kglobal, RefShapes[mesh->blocks[0].shape]));
  if (on_device) {
    PetscCall(MeasureCopyBandwidth(mesh->dm, 512, &roofline.Bg)); /* 512 MiB a vector */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "copy bandwidth Bg: %.1f GB/s (read + write)\nshared-memory bandwidth Bsh: %.1f GB/s\n", (double)(roofline.Bg * 1e-9), (double)(roofline.Bsh * 1e-9)));
  } else { /* one core: its memory bandwidth and its FP64 peak */
    PetscCall(MeasureTriadBandwidth(stream_mib, &roofline.Bg));
    if (peak_gflops > 0)
      roofline.peak = peak_gflops * 1e9;
    else
      PetscCall(MeasurePeakFlops(&roofline.peak));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "memory bandwidth Bg: %.1f GB/s (triad a = b + s c, 3 x %" PetscInt_FMT " MiB, read + write)\nFP64 peak: %.1f GFLOP/s (%s)\n", (double)(roofline.Bg * 1e-9), stream_mib, (double)(roofline.peak * 1e-9),
                          peak_gflops > 0 ? "-bench_cpu_peak_gflops" : "measured: mul+add chains compiled with the kernels' flags"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-13s %2s %-14s %3s %2s %10s %9s %8s %9s %9s %9s %7s\n", "shape", "N", "kernel", "epb", "P", "seconds", "GFLOP/s", "GB/s", "mem-bnd", "smem-bnd", "peak", "roof"));
  if (csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "device,shape,N,kernel,elements,elements_per_block,elements_per_thread,seconds,gflops,gbytes_per_s,copy_bound_gflops,shared_bound_gflops,peak_gflops,percent_roofline\n"));
  }
  for (PetscInt o = 0; o < norders; o++) {
    const PetscInt N = orders[o];
    Disc           dgdisc;
    DGDisc        *disc;
    PetscInt       epbs[] = {1, 2, 4, 8, 16, 32}, epts[] = {1, 2, 4, 8}, nepb = sweep && on_device ? 24 : 1; /* 3D kernels: P = 4 up to 56 nodes, 8 up to 20 (cuda/ipdg.cu) */
    PetscReal      best_dofs = 0;
    PetscBool      tensor_shape;

    PetscCall(DGDiscCreate(mesh, N, &dgdisc));
    PetscCall(DiscGetDG(dgdisc, "the kernel benchmark", &disc));
    PetscCheck(disc->ref, PETSC_COMM_WORLD, PETSC_ERR_SUP, "The kernel benchmark needs a mesh of one element shape");
    tensor_shape = (PetscBool)(on_device ? IPDGTensorCUDASupported(disc->ref->shape, (int)N) : IPDGTensorHostSupported(disc->ref->shape, (int)N));
    /* quadrilaterals and hexahedra: the dense kernels (rows gradient, apply), then the sum-factorized ones
     * (rows tensor-gradient, tensor-apply; -ipdg_kernel tensor) */
    for (PetscInt kind = 0; kind < (tensor_shape ? 2 : 1); kind++) {
      if (tensor_shape && kinds_sel != 2 && kind != kinds_sel) continue;
      best_dofs = 0;
      PetscCall(PetscOptionsSetValue(NULL, "-ipdg_kernel", kind ? "tensor" : "dense"));
      /* 3D dense on the device: three more passes, the apply on FP64 tensor cores with 8, 16, 32 elements a block (rows apply-tc) */
      for (PetscInt s = 0; s < (kind ? 1 : nepb + (on_device && mesh->dim == 3 ? 3 : 0)); s++) {
        const PetscBool tc = (PetscBool)(!kind && s >= nepb);
        const PetscInt  tc_e = 8 << (tc ? s - nepb : 0);
        Mat             A;
        Vec          x;
        PetscRandom  rnd;
        KernelTiming g, a;
        PetscInt     Np = disc->Np, Nf = disc->ref->Nfaces, nfn = disc->ref->Nfn, dim = mesh->dim, epb_g = -1, epb_a = -1, ept_g = -1, ept_a = -1;
        char         val[64];

        if (tc) {
          PetscCall(PetscSNPrintf(val, sizeof(val), "0,%" PetscInt_FMT, tc_e));
          PetscCall(PetscOptionsSetValue(NULL, "-ipdg_cuda_elements_per_block", val));
          PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_elements_per_thread"));
          PetscCall(PetscOptionsSetValue(NULL, "-ipdg_cuda_apply_units", "tensor_cores"));
        } else if (sweep && on_device) {
          /* one thread row of P elements must fit the 48 KB of static shared memory */
          if (epts[s / 6] * (4 * nfn + 5 * Np) * sizeof(PetscReal) > 48 * 1024) continue;
          if (dim == 3 && ((epts[s / 6] == 4 && Np > 56) || (epts[s / 6] == 8 && Np > 20))) continue; /* cuda/ipdg.cu's 3D instances */
          PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT ",%" PetscInt_FMT, epbs[s % 6], epbs[s % 6]));
          PetscCall(PetscOptionsSetValue(NULL, "-ipdg_cuda_elements_per_block", val));
          PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT ",%" PetscInt_FMT, epts[s / 6], epts[s / 6]));
          PetscCall(PetscOptionsSetValue(NULL, "-ipdg_cuda_elements_per_thread", val));
          PetscCall(PetscOptionsSetValue(NULL, "-ipdg_cuda_apply_units", "cuda_cores")); /* the launch shapes are the CUDA cores' */
        }
        PetscCall(IPDGOperatorCreate(disc, 0.0, NULL, &A));
        PetscCall(DMCreateGlobalVector(disc->dm, &x));
        PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
        PetscCall(VecSetRandom(x, rnd));
        PetscCall(IPDGOperatorTimeKernels(A, x, reps, &g.t, &a.t));
#if defined(HOFLOW_HAVE_CUDA)
        if (on_device) { /* host kernels have no launch shape */
          epb_g = sweep ? epbs[s % 6] : IPDGElementsPerBlock(0, disc->ref->shape, (int)N);
          epb_a = sweep ? epbs[s % 6] : IPDGElementsPerBlock(1, disc->ref->shape, (int)N);
          ept_g = sweep ? epts[s / 6] : IPDGElementsPerThread(0, disc->ref->shape, (int)N);
          ept_a = sweep ? epts[s / 6] : IPDGElementsPerThread(1, disc->ref->shape, (int)N);
          if (!sweep && dim == 3 && IPDGApplyUnits(disc->ref->shape, (int)N) == 2) { /* the table's apply runs on tensor cores */
            epb_a = IPDGApplyTCElementsPerBlock(disc->ref->shape, (int)N);
            ept_a = 0;
          }
        }
#endif
        g.flops  = mesh->K * (kind ? IPDGTensorGradientFlopsPerElement((int)dim, (int)N) : IPDGGradientFlopsPerElement((int)dim, (int)Np));
        g.bytes  = mesh->K * IPDGGradientBytesPerElement((int)dim, (int)Np);
        g.shared = mesh->K * 8.0 * (Np * Np + Np);
        a.flops  = mesh->K * (kind ? IPDGTensorApplyFlopsPerElement((int)dim, (int)N) : IPDGApplyFlopsPerElement((int)dim, (int)Np, (int)Nf, (int)nfn));
        a.bytes  = mesh->K * IPDGApplyBytesPerElement((int)dim, (int)Np, (int)Nf, (int)nfn);
        a.shared = mesh->K * 8.0 * (3.0 * Np * Np + 3.0 * Np * nfn + 6.0 * nfn + 6.0 * Np);
        if (kind) { /* the tensor kernels: one element per thread block, no launch-shape table; shared memory
                     * traffic of the passes: 2 N1 reads per point and pass */
          const PetscReal N1 = N + 1, passes_g = dim, passes_a = dim == 2 ? 7 : 12;
          epb_g = epb_a = ept_g = ept_a = -1;
          g.shared                      = mesh->K * 8.0 * 2.0 * N1 * Np * passes_g;
          a.shared                      = mesh->K * 8.0 * 2.0 * N1 * Np * passes_a;
        }
        if (tc) { /* blocks of 8 elements, no elements per thread; the gradient is the CUDA-core one again */
          PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_apply_units"));
          PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_elements_per_block"));
          PetscCall(ReportKernel(csv, device, RefShapes[mesh->blocks[0].shape], N, mesh->Kglobal, tc_e, 0, "apply-tc", a, roofline));
        } else {
          PetscCall(ReportKernel(csv, device, RefShapes[mesh->blocks[0].shape], N, mesh->Kglobal, epb_g, ept_g, kind ? "tensor-gradient" : "gradient", g, roofline));
          PetscCall(ReportKernel(csv, device, RefShapes[mesh->blocks[0].shape], N, mesh->Kglobal, epb_a, ept_a, kind ? "tensor-apply" : "apply", a, roofline));
        }
        best_dofs = PetscMax(best_dofs, mesh->K * Np / (g.t + a.t));
        PetscCall(PetscRandomDestroy(&rnd));
        PetscCall(VecDestroy(&x));
        PetscCall(MatDestroy(&A));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "throughput N=%" PetscInt_FMT " %s: %.3f GDOF/s (gradient + apply, one operator application)\n", N, kind ? "tensor" : "dense", best_dofs * 1e-9));
    }
    PetscCall(PetscOptionsClearValue(NULL, "-ipdg_kernel"));
    if (ins && INSKernelsSupported(mesh->blocks[0].shape, (int)disc->N)) PetscCall(BenchINS(csv, device, mesh, disc, reps, on_device, roofline));
    if (sweep) {
      PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_apply_units"));
      PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_elements_per_block"));
      PetscCall(PetscOptionsClearValue(NULL, "-ipdg_cuda_elements_per_thread"));
    }
    if (N == cg_order) { /* CG + Jacobi iterations on this order: time per iteration */
      Mat            A;
      Vec            b, u;
      KSP            ksp;
      PC             pc;
      PetscLogDouble t0, t1;
      PetscInt       its;

      PetscCall(IPDGOperatorCreate(disc, 0.0, NULL, &A));
      PetscCall(DMCreateGlobalVector(disc->dm, &b));
      PetscCall(VecDuplicate(b, &u));
      PetscCall(VecSet(b, 1.0));
      PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPSetType(ksp, KSPCG));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, PCJACOBI));
      PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-30, PETSC_DEFAULT, cg_its));
      PetscCall(KSPSetUp(ksp));
      PetscCall(VecZeroEntries(u));
      PetscCall(KSPSolve(ksp, b, u)); /* warm up */
      PetscCall(VecZeroEntries(u));
      PetscCall(PetscTime(&t0));
      PetscCall(KSPSolve(ksp, b, u));
      PetscCall(PetscTime(&t1));
      PetscCall(KSPGetIterationNumber(ksp, &its));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cg: N=%" PetscInt_FMT " dofs %" PetscInt_FMT " iterations %" PetscInt_FMT " seconds %.4e per-iteration %.4e\n", N, mesh->Kglobal * disc->Np, its, t1 - t0, (t1 - t0) / its));
      PetscCall(KSPDestroy(&ksp));
      PetscCall(VecDestroy(&b));
      PetscCall(VecDestroy(&u));
      PetscCall(MatDestroy(&A));
    }
    PetscCall(DiscDestroy(&dgdisc));
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  PetscCall(MeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
