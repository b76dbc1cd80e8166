-- A migration that takes longer than the pool's idle-in-transaction limit (SlowMigrationTest).
create table slow_migration (n int);
select pg_sleep(3);
