-- The e-mail addresses visitors give before converting, kept for the site's operator.
-- The app reaches the database only through upsert_pixel_email, with Supabase's anonymous key: the `anon` role may
-- execute that one function and has no right on the table itself.

create table if not exists public.pixel_emails (
  email text primary key,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  call_count integer not null default 1 check (call_count > 0),
  constraint pixel_emails_email_is_normalised check (email = lower(btrim(email))),
  constraint pixel_emails_email_is_an_address check (char_length(email) <= 254 and email ~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$')
);

comment on table public.pixel_emails is 'E-mail addresses given on the converter page: first and last time seen, and how often.';

-- Row level security with no policy: a role that is not the owner reads and writes nothing, even if a grant slips in
-- later (Supabase grants new tables in public to anon by default).
alter table public.pixel_emails enable row level security;
revoke all on table public.pixel_emails from public, anon, authenticated;

create or replace function public.upsert_pixel_email(user_email text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  normalised text := lower(btrim(user_email));
begin
  if normalised is null or char_length(normalised) > 254 or normalised !~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$' then
    raise exception 'not an e-mail address' using errcode = '22023';
  end if;

  insert into public.pixel_emails as known (email)
  values (normalised)
  on conflict (email) do update
    set last_seen_at = now(),
        call_count = known.call_count + 1;
end;
$$;

comment on function public.upsert_pixel_email(text) is 'Records an e-mail address given on the converter page (insert, or update last seen and count).';

-- Functions are executable by PUBLIC unless revoked (and Supabase grants new ones to its API roles by default):
-- only anon, the role of the app's key, gets this one back.
revoke all on function public.upsert_pixel_email(text) from public, anon, authenticated;
grant execute on function public.upsert_pixel_email(text) to anon;
