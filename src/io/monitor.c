/* Scalar monitors as CSV (one row per time step, a header naming the columns; rank 0 writes)
 * and a one-line progress report for long runs (rank 0, every -progress_interval seconds). */
#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <petsctime.h>

struct _n_MonitorCSV {
  MPI_Comm    comm;
  PetscMPIInt rank;
  PetscInt    ncolumns;
  FILE       *fp;
};

/* Rows of an existing CSV up to `step`, when its header is `header` (rank 0). */
static PetscErrorCode MonitorCSVKeptRows(const char path[], const char header[], PetscInt step, char **kept)
{
  FILE  *fp = fopen(path, "r");
  char   line[8192];
  size_t len = 0, cap = 0;

  PetscFunctionBeginUser;
  *kept = NULL;
  if (!fp) PetscFunctionReturn(PETSC_SUCCESS);
  if (!fgets(line, sizeof(line), fp) || strcmp(line, header)) {
    fclose(fp);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  while (fgets(line, sizeof(line), fp)) {
    long long s;
    size_t    n = strlen(line);
    if (sscanf(line, "%lld,", &s) != 1 || s > step || line[n - 1] != '\n') continue;
    if (len + n + 1 > cap) {
      cap = PetscMax(2 * cap, len + n + 1 + 4096);
      PetscCall(PetscRealloc(cap, kept));
    }
    memcpy(*kept + len, line, n);
    len += n;
    (*kept)[len] = '\0';
  }
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorCSVCreate(MPI_Comm comm, const char path[], PetscInt ncolumns, const char *columns[], PetscInt restart_step, MonitorCSV *csv_out)
{
  MonitorCSV csv;
  int        ok = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&csv));
  csv->comm     = comm;
  csv->ncolumns = ncolumns;
  PetscCallMPI(MPI_Comm_rank(comm, &csv->rank));
  if (csv->rank == 0) {
    char header[4096] = "step,time,dt", *kept = NULL;
    for (PetscInt k = 0; k < ncolumns; k++) {
      PetscCall(PetscStrlcat(header, ",", sizeof(header)));
      PetscCall(PetscStrlcat(header, columns[k], sizeof(header)));
    }
    PetscCall(PetscStrlcat(header, "\n", sizeof(header)));
    if (restart_step >= 0) PetscCall(MonitorCSVKeptRows(path, header, restart_step, &kept));
    csv->fp = fopen(path, "w");
    if (csv->fp) {
      fputs(header, csv->fp);
      if (kept) fputs(kept, csv->fp);
      fflush(csv->fp);
    } else
      ok = 0;
    PetscCall(PetscFree(kept));
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  PetscCheck(ok, comm, PETSC_ERR_FILE_OPEN, "Cannot write monitor file '%s' (-monitor_file)", path);
  *csv_out = csv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorCSVWriteRow(MonitorCSV csv, PetscInt step, PetscReal time, PetscReal dt, const PetscReal values[])
{
  PetscFunctionBeginUser;
  if (csv->rank) PetscFunctionReturn(PETSC_SUCCESS);
  fprintf(csv->fp, "%lld,%.17g,%.17g", (long long)step, (double)time, (double)dt);
  for (PetscInt k = 0; k < csv->ncolumns; k++) fprintf(csv->fp, ",%.17g", (double)values[k]);
  fprintf(csv->fp, "\n");
  fflush(csv->fp); /* a killed run keeps every completed row */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorCSVDestroy(MonitorCSV *csv)
{
  PetscFunctionBeginUser;
  if (!*csv) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*csv)->fp) fclose((*csv)->fp);
  PetscCall(PetscFree(*csv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct _n_Progress {
  MPI_Comm       comm;
  PetscMPIInt    rank;
  PetscReal      interval;
  PetscLogDouble wall0, last;
  PetscInt       step0, max_steps;
  PetscReal      time0, max_time;
};

PetscErrorCode ProgressCreate(MPI_Comm comm, PetscReal interval, PetscInt step0, PetscReal time0, PetscInt max_steps, PetscReal max_time, Progress *progress)
{
  Progress p;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&p));
  p->comm      = comm;
  p->interval  = interval;
  p->step0     = step0;
  p->time0     = time0;
  p->max_steps = max_steps;
  p->max_time  = max_time;
  PetscCallMPI(MPI_Comm_rank(comm, &p->rank));
  PetscCall(PetscTime(&p->wall0));
  p->last   = p->wall0;
  *progress = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void ProgressFormatSeconds(PetscReal s, char buf[], size_t len)
{
  if (s < 0)
    snprintf(buf, len, "?");
  else if (s < 120)
    snprintf(buf, len, "%.1fs", (double)s);
  else if (s < 7200)
    snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
  else
    snprintf(buf, len, "%dh%02dm", (int)(s / 3600), ((int)s % 3600) / 60);
}

PetscErrorCode ProgressUpdate(Progress p, PetscInt step, PetscReal time, PetscReal dt, PetscInt iterations, PetscBool final)
{
  PetscLogDouble now;
  PetscReal      fraction = 0, wall, eta = -1;
  char           swall[32], seta[32];

  PetscFunctionBeginUser;
  if (p->rank || p->interval < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  if (!final && now - p->last < p->interval) PetscFunctionReturn(PETSC_SUCCESS);
  p->last = now;
  wall    = now - p->wall0;
  /* done fraction toward whichever limit comes first */
  if (p->max_time > p->time0 && p->max_time < PETSC_MAX_REAL) fraction = PetscMax(fraction, (time - p->time0) / (p->max_time - p->time0));
  if (p->max_steps > p->step0 && p->max_steps < PETSC_MAX_INT) fraction = PetscMax(fraction, (PetscReal)(step - p->step0) / (PetscReal)(p->max_steps - p->step0));
  if (fraction > 0) eta = wall * (1 - PetscMin(fraction, 1)) / fraction;
  ProgressFormatSeconds(wall, swall, sizeof(swall));
  ProgressFormatSeconds(eta, seta, sizeof(seta));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "progress: step %" PetscInt_FMT " time %.6e dt %.3e wall %s remaining %s ksp_iterations %" PetscInt_FMT "\n", step, (double)time, (double)dt, swall, seta, iterations));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProgressDestroy(Progress *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
