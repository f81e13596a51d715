/* Scalar monitors as CSV (one row per time step, a header naming the columns; rank 0 writes)
 * and a one-line progress report for long runs (rank 0, every -progress_interval seconds). */
#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <petsctime.h>

#define HOFLOW_CSV_MAX_COLUMNS 40 /* after the step: time, dt, the monitors (HOFLOW_MAX_MONITORS 32) and the iterations */

struct _n_MonitorCSV {
  MPI_Comm    comm;
  PetscMPIInt rank;
  PetscInt    ncolumns;
  FILE       *fp;
  PetscInt    nkept;       /* rows kept from the file on a restart (every rank) */
  PetscReal  *kept_time;   /* their times */
  PetscReal  *kept_values; /* and values, ncolumns a row */
};

/* Rows of an existing CSV up to `step` (rank 0); an error when its header is not `header` (it would be lost). */
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
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Monitor file '%s' of the run this one restarts has another header than this run's (%.*s): a restart continues the file, so restart the problem it was written for, or give another -monitor_file", path, (int)(strlen(header) - 1), header);
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

/* The kept rows' times and values (rank 0; "nan" reads as NaN). */
static PetscErrorCode MonitorCSVParseRows(MonitorCSV csv, const char *kept)
{
  PetscInt n = 0;

  PetscFunctionBeginUser;
  for (const char *c = kept; *c; c++) n += *c == '\n';
  PetscCall(PetscMalloc2(n, &csv->kept_time, n * csv->ncolumns, &csv->kept_values));
  for (const char *line = kept; *line && csv->nkept < n;) {
    char     *end;
    PetscReal row[HOFLOW_CSV_MAX_COLUMNS] = {0};
    PetscInt  k = 0;
    (void)strtoll(line, &end, 10); /* the step */
    for (; k < csv->ncolumns + 2 && *end == ','; k++) row[k] = (PetscReal)strtod(end + 1, &end);
    if (k == csv->ncolumns + 2) {
      csv->kept_time[csv->nkept] = row[0];
      for (PetscInt j = 0; j < csv->ncolumns; j++) csv->kept_values[csv->nkept * csv->ncolumns + j] = row[2 + j];
      csv->nkept++;
    }
    line = strchr(line, '\n');
    if (!line) break;
    line++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorCSVGetKeptRows(MonitorCSV csv, PetscInt *n, const PetscReal **times, const PetscReal **values)
{
  PetscFunctionBeginUser;
  *n      = csv->nkept;
  *times  = csv->kept_time;
  *values = csv->kept_values;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorCSVCreate(MPI_Comm comm, const char path[], PetscInt ncolumns, const char *columns[], PetscInt restart_step, MonitorCSV *csv_out)
{
  MonitorCSV csv;
  int        ok = 1;

  PetscFunctionBeginUser;
  PetscCheck(ncolumns + 2 <= HOFLOW_CSV_MAX_COLUMNS, comm, PETSC_ERR_ARG_SIZ, "Monitor file '%s': %" PetscInt_FMT " columns, at most %d", path, ncolumns + 2, HOFLOW_CSV_MAX_COLUMNS);
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
    if (kept) PetscCall(MonitorCSVParseRows(csv, kept));
    PetscCall(PetscFree(kept));
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  PetscCheck(ok, comm, PETSC_ERR_FILE_OPEN, "Cannot write monitor file '%s' (-monitor_file)", path);
  PetscCallMPI(MPI_Bcast(&csv->nkept, 1, MPIU_INT, 0, comm));
  if (csv->nkept && csv->rank) PetscCall(PetscMalloc2(csv->nkept, &csv->kept_time, csv->nkept * ncolumns, &csv->kept_values));
  if (csv->nkept) {
    PetscCallMPI(MPI_Bcast(csv->kept_time, (PetscMPIInt)csv->nkept, MPIU_REAL, 0, comm));
    PetscCallMPI(MPI_Bcast(csv->kept_values, (PetscMPIInt)(csv->nkept * ncolumns), MPIU_REAL, 0, comm));
  }
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
  PetscCall(PetscFree2((*csv)->kept_time, (*csv)->kept_values));
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
